/**
 * The Vela bench app with the telemetry bench's database route (telemetry/db-route.ts, on
 * `BENCH_PG_URL`) and no telemetry: the untraced server of the telemetry count when it has a
 * database, on every route, so it loads what the traced servers load (vela.ts stays free of the
 * database driver, for the runtime bench).
 */
import { listen } from '../../server/index.ts'
import { dbRoutes } from '../telemetry/db-route.ts'
import { createBenchApp } from './vela-app.ts'

const { routes } = await dbRoutes(process.env.BENCH_PG_URL!)
await listen(createBenchApp(undefined, routes), { port: Number(process.env.PORT), host: '127.0.0.1' })
