/**
 * The query span's own cost, in-process: vela/dbl's query runner (dbl/repo/telemetry.ts) over a
 * connection that answers at once, inside a sampled request span, with telemetry on at full
 * sampling (`BENCH_OTEL=all`, bench/servers/telemetry-setup.ts) against no telemetry (`off`).
 * The difference is what a query span adds; no database, so no I/O noise. Prints the CPU µs per
 * query of each batch as JSON.
 */
import { context, trace } from '@opentelemetry/api'
import type { Connection, QueryResult } from '../../dbl/adapters/adapter.ts'
import { createRunner } from '../../dbl/repo/telemetry.ts'

const mode = process.env.BENCH_OTEL ?? 'off'
if (mode !== 'off') {
  const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
  await setupBenchTelemetry()
}
const result: QueryResult = { rows: [{ id: 42 }], rowCount: 1 }
const conn: Connection = { query: () => Promise.resolve(result) as never }
const run = createRunner('bench', undefined)
const sql = 'select "id" from "products" where "id" = $1'
const params = [42]

const n = Number(process.env.BENCH_N ?? 20_000)
const cpu: number[] = []
const request = trace.getTracer('bench').startSpan('GET /db')
await context.with(trace.setSpan(context.active(), request), async () => {
  if (mode !== 'off' && !trace.getActiveSpan()?.isRecording()) throw new Error('the request span is not recording')
  for (let b = 0; b < Number(process.env.BENCH_BATCHES ?? 8); b++) {
    const c0 = process.cpuUsage()
    for (let i = 0; i < n; i++) {
      await run(conn, sql, params, 'SELECT products')
      // The event loop turns now and then, as between requests (the batch processor's timer).
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve))
    }
    const c = process.cpuUsage(c0)
    cpu.push((c.user + c.system) / n)
  }
})
request.end()
console.log(JSON.stringify({ cpu }))
