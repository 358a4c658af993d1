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
import { batch } from '../path-runner.ts'

const result: QueryResult = { rows: [{ id: 42 }], rowCount: 1 }
const conn: Connection = { query: () => Promise.resolve(result) as never }
const run = createRunner('bench', undefined)
const sql = 'select "id" from "products" where "id" = $1'
const params = [42]
const n = Number(process.env.BENCH_N ?? 20_000)
const batches = Number(process.env.BENCH_BATCHES ?? 8)

const once = () => run(conn, sql, params, 'SELECT', 'products')

// Warm-up first: the later phase would otherwise gain from it.
for (let b = 0; b < 2; b++) await batch(once, n)
const before: number[] = []
for (let b = 0; b < batches; b++) before.push((await batch(once, n)).cpu)

const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
await setupBenchTelemetry()
const { context, trace } = await import('@opentelemetry/api')
const request = trace.getTracer('bench').startSpan('GET /db')
const after: number[] = []
await context.with(trace.setSpan(context.active(), request), async () => {
  if (!trace.getActiveSpan()?.isRecording()) throw new Error('the request span is not recording')
  for (let b = 0; b < batches; b++) after.push((await batch(once, n)).cpu)
})
request.end()
console.log(JSON.stringify({ before, after }))
