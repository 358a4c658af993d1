/**
 * The Vela bench app traced with vela/telemetry (the telemetry bench): its stream handler, as an
 * app ships it (the span is named after the route without `telemetryPlugin`), on the shared SDK
 * set-up of telemetry-setup.ts. With `BENCH_PG_URL`, also the database route, whose sampled
 * requests carry a query span (telemetry/db-route.ts).
 */
import { listen } from '../../server/index.ts'
import { telemetryStreamHandler } from '../../telemetry/index.ts'
import { dbRoutes } from '../telemetry/db-route.ts'
import { setupBenchTelemetry } from './telemetry-setup.ts'
import { createBenchApp } from './vela-app.ts'

await setupBenchTelemetry()
const db = process.env.BENCH_PG_URL ? await dbRoutes(process.env.BENCH_PG_URL) : undefined
const app = createBenchApp({ streamHandler: telemetryStreamHandler }, db?.routes)
await listen(app, { port: Number(process.env.PORT), host: '127.0.0.1' })
