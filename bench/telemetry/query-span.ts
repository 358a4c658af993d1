/**
 * The query span's own cost, in-process: vela/dbl's query runner (dbl/repo/telemetry.ts) over a
 * connection that answers at once, first with no telemetry module loaded (`before`), then, in the
 * same process, with telemetry set up at full sampling (bench/servers/telemetry-setup.ts) inside a
 * sampled request span (`after`). The difference is what a query span adds; no database, so no
 * I/O noise, and one process, so no difference in JIT state or heap between the two. Prints the
 * CPU µs per query of each batch as JSON.
 */
import type { Connection, QueryResult } from '../../dbl/adapters/adapter.ts'
import { createRunner } from '../../dbl/repo/telemetry.ts'

const result: QueryResult = { rows: [{ id: 42 }], rowCount: 1 }
const conn: Connection = { query: () => Promise.resolve(result) as never }
const run = createRunner('bench', undefined)
const sql = 'select "id" from "products" where "id" = $1'
const params = [42]
const n = Number(process.env.BENCH_N ?? 20_000)
const batches = Number(process.env.BENCH_BATCHES ?? 8)

async function batch(): Promise<number> {
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    await run(conn, sql, params, 'SELECT products')
    // The event loop turns now and then, as between requests (the batch processor's timer).
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve))
  }
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / n
}

// Warm-up first: the later phase would otherwise gain from it.
for (let b = 0; b < 2; b++) await batch()
const before: number[] = []
for (let b = 0; b < batches; b++) before.push(await batch())

const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
await setupBenchTelemetry()
const { context, trace } = await import('@opentelemetry/api')
const request = trace.getTracer('bench').startSpan('GET /db')
const after: number[] = []
await context.with(trace.setSpan(context.active(), request), async () => {
  if (!trace.getActiveSpan()?.isRecording()) throw new Error('the request span is not recording')
  for (let b = 0; b < batches; b++) after.push(await batch())
})
request.end()
console.log(JSON.stringify({ before, after }))
