/**
 * One process of the telemetry bench's in-process part (bench/telemetry/path.ts): `BENCH_ROUTE`
 * served through `app.handleNode` by the path bench's requester (bench/path-runner.ts), first by
 * the bench app alone with no telemetry module loaded (`before`), then, once vela/telemetry is set
 * up as `BENCH_OTEL` says (bench/servers/telemetry-setup.ts), by the same app with the telemetry
 * stream handler (`on`) and without it (`off`), their batches interleaved. Both apps run in one
 * process, so they share its heap and JIT state: the difference between them is telemetry's own
 * work per request, free of the swings between processes, and `off` against `before` is what
 * loading and starting telemetry costs the requests it does not observe (AsyncLocalStorage's
 * promise hooks, once a context is entered, are process-wide on Node 22).
 *
 * With `BENCH_PG_URL`, the app also has `GET /db/products/:id`, one PostgreSQL query through
 * vela/dbl, so a query span's cost is measured. Prints `{ before, off, on }`, each a list of
 * batches' CPU µs per request, as JSON.
 */
import type { StreamHandler } from '../../server/index.ts'
import { PATH_ROUTES, batch, benchRoute, requester } from '../path-runner.ts'
import { createBenchApp } from '../servers/vela-app.ts'
import { DB_PATH_ROUTES, dbRoutes } from './db-route.ts'

const route = benchRoute({ ...PATH_ROUTES, ...DB_PATH_ROUTES })
const n = Number(process.env.BENCH_N ?? 10_000)
const batches = Number(process.env.BENCH_BATCHES ?? 6)
const db = process.env.BENCH_PG_URL ? await dbRoutes(process.env.BENCH_PG_URL) : undefined
const app = (traced?: { streamHandler: StreamHandler }) => requester(createBenchApp(traced, db?.routes), route)

const off = app()
// Warm-up first (the JIT, the pool's connections): the later phases would otherwise gain from it.
for (let b = 0; b < 3; b++) await batch(off, n)
const before: number[] = []
for (let b = 0; b < batches; b++) before.push((await batch(off, n)).cpu)

const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
const { telemetryStreamHandler } = await import('../../telemetry/index.ts')
await setupBenchTelemetry()
// As apps ship it: the stream handler names the span after the route; no telemetryPlugin.
const on = app({ streamHandler: telemetryStreamHandler })
const after: Record<'off' | 'on', number[]> = { off: [], on: [] }
for (let b = 0; b < batches; b++) {
  for (const which of b % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const))
    after[which].push((await batch(which === 'on' ? on : off, n)).cpu)
}
await db?.stop()
console.log(JSON.stringify({ before, ...after }))
