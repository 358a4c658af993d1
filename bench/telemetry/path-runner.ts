/**
 * One process of the telemetry bench's in-process part (bench/telemetry.ts): the bench app with
 * vela/telemetry as `BENCH_OTEL` says (`off`: no telemetry module loaded; `all`, `ratio10`,
 * `none`: bench/servers/telemetry-setup.ts), served through `app.handleNode` by the path bench's
 * runner (bench/path-runner.ts). With `BENCH_PG_URL`, the app also has `GET /db/products/:id`,
 * one PostgreSQL query through vela/dbl, so a query span's cost is measured.
 */
import type { StreamHandler } from '../../server/index.ts'
import { PATH_ROUTES, runPath } from '../path-runner.ts'
import { createBenchApp } from '../servers/vela-app.ts'
import { DB_PATH_ROUTES, dbRoutes } from './db-route.ts'

const mode = process.env.BENCH_OTEL ?? 'off'
let traced: { streamHandler: StreamHandler } | undefined
if (mode !== 'off') {
  const { setupBenchTelemetry } = await import('../servers/telemetry-setup.ts')
  const { telemetryStreamHandler } = await import('../../telemetry/index.ts')
  await setupBenchTelemetry()
  // As apps ship it: the stream handler names the span after the route; no telemetryPlugin.
  traced = { streamHandler: telemetryStreamHandler }
}
const db = process.env.BENCH_PG_URL ? await dbRoutes(process.env.BENCH_PG_URL) : undefined
await runPath(createBenchApp(traced, db?.routes), { ...PATH_ROUTES, ...DB_PATH_ROUTES })
await db?.stop()
