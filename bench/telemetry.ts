/**
 * Telemetry bench (`npm run bench -- telemetry`), in parts chosen by `BENCH_TELEMETRY` (a comma
 * list; default `path,query,load`):
 *
 * - `path`: in-process, no sockets (bench/telemetry/path.ts): CPU µs per request that telemetry
 *   adds on GET /heartbeat, GET /api/products/:id and a PostgreSQL read through vela/dbl, at full
 *   sampling, at 10 %, and with nothing exported, against the same app without telemetry. The
 *   steady figure on a busy machine.
 * - `query`: the query span alone (bench/telemetry/query-span.ts): µs per query span.
 * - `load`: over sockets, below.
 * - `playground` (on request): the built playground on PostgreSQL, telemetry as shipped, against
 *   bare node:http + pg (bench/telemetry/playground.ts).
 * - `count` (on request): the instructions telemetry adds per request in-process, counted under
 *   valgrind's callgrind (bench/telemetry/path.ts, `countTelemetry`): the same on a busy machine.
 * - `count-sockets` (on request): the `load` part's servers counted under callgrind instead of
 *   timed (bench/count-sockets.ts): instructions per request over a socket, one request at a time;
 *   with PostgreSQL, also the database route (`GET /db/products/:id`) for Vela.
 *
 * The `load` part: the cost of tracing on GET /heartbeat and GET /api/products/:id, for Vela and for the Fastify
 * baseline, each with telemetry off and on, in one run (interleaved rounds of fresh processes,
 * medians, as in bench/runtime.ts).
 *
 * - Vela on (servers/vela-otel.ts): the runtime bench's app with vela/telemetry's stream handler
 *   as apps ship it: a span per request, named after the controller and action, plus the four HTTP
 *   server metrics as Prometheus series.
 * - Fastify on (servers/fastify-otel.ts): OpenTelemetry's HTTP instrumentation (a span per
 *   request, the duration histogram on the OTel meter), the usual way to trace a Fastify app.
 * - Vela on at 10 % (`vela+otel@10%`): parent-based sampling of 10 % of new traces.
 * - Vela on, nothing exported (`vela+otel@none`): `spanProcessors: []`, metrics only.
 * - Off: the runtime bench's servers as they are, without any telemetry module loaded.
 *
 * Both use the same SDK set-up (bench/servers/telemetry-setup.ts): every span sampled, batched,
 * then dropped instead of exported.
 *
 * Every server gets the same load, `BENCH_RATE` requests per second (default 5000, below what the
 * slowest traced server answers on a 2-core VM), so CPU per request compares like with like.
 * Driven as fast as each server answers (`BENCH_RATE=0`, wrk), the faster server takes more
 * requests per wake-up of itself and of the load generator, and its CPU per request drops for that
 * reason alone: telemetry's cost then looks several times larger than its code.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50)
 */
import { fileURLToPath } from 'node:url'
import { countOverSockets } from './count-sockets.ts'
import type { LoadTarget } from './load.ts'
import { hasWrk, measureRounds, median, picked } from './load.ts'
import { DB_PATH_ROUTES } from './telemetry/db-route.ts'
import { benchDatabase, benchQuerySpan, benchTelemetryPath, countTelemetry } from './telemetry/path.ts'
import { benchTelemetryPlayground } from './telemetry/playground.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rate = Number(process.env.BENCH_RATE ?? 5000)
const servers = ['vela', 'vela+otel', 'vela+otel@10%', 'vela+otel@none', 'fastify', 'fastify+otel'] as const
type Server = (typeof servers)[number]
const traced: readonly [Server, Server][] = [
  ['vela', 'vela+otel'],
  ['vela', 'vela+otel@10%'],
  ['vela', 'vela+otel@none'],
  ['fastify', 'fastify+otel'],
]
// By the names `BENCH_ROUTES` lists (the path part's): the two routes every server serves, and
// the database route, which only Vela's servers serve and only the count runs.
const ROUTES: Record<string, LoadTarget> = {
  heartbeat: { name: 'GET /heartbeat', method: 'GET', path: '/heartbeat', expectStatus: 200 },
  'products/:id': { name: 'GET /api/products/:id', method: 'GET', path: '/api/products/42', expectStatus: 200 },
}
const targets = Object.values(ROUTES)
const DB_ROUTE = 'db products/:id'
const otelMode: Record<string, string> = { 'vela+otel': 'all', 'vela+otel@10%': 'ratio10', 'vela+otel@none': 'none' }

/** The parts `BENCH_TELEMETRY` names, in order. */
export async function benchTelemetry(): Promise<void> {
  const parts = (process.env.BENCH_TELEMETRY ?? 'path,query,load').split(',')
  if (parts.includes('path')) await benchTelemetryPath()
  if (parts.includes('query')) await benchQuerySpan()
  if (parts.includes('load')) await benchTelemetryLoad()
  if (parts.includes('playground')) await benchTelemetryPlayground()
  if (parts.includes('count')) await countTelemetry()
  if (parts.includes('count-sockets')) await countTelemetrySockets()
}

const fileOf = (server: string) =>
  fileURLToPath(new URL(`./servers/${server.replace(/@.*/, '').replace('+', '-')}.ts`, import.meta.url))
const envOf = (server: string): Record<string, string> => (otelMode[server] ? { BENCH_OTEL: otelMode[server] } : {})

/**
 * The load part's servers and routes counted under callgrind, plus, with PostgreSQL, the database
 * route (`GET /db/products/:id`, one query through vela/dbl: a sampled request carries a query
 * span) on Vela's servers; the untraced one is then `vela-db` (vela.ts with that route, which the
 * runtime bench's vela.ts leaves out), for every route, so both sides load the same modules.
 * `BENCH_ROUTES` picks among `heartbeat`, `products/:id` and `db products/:id`.
 */
async function countTelemetrySockets(): Promise<void> {
  console.log('telemetry, counted: server instructions per request over one keep-alive connection, under callgrind')
  const names = picked([...Object.keys(ROUTES), DB_ROUTE], 'BENCH_ROUTES')
  const db = names.includes(DB_ROUTE) ? await benchDatabase() : undefined
  const routes = names.flatMap((name) => (ROUTES[name] ? [ROUTES[name]] : []))
  if (db) {
    const { method, url, status } = DB_PATH_ROUTES[DB_ROUTE]
    const vela = servers.filter((s) => s.startsWith('vela'))
    routes.push({ name: `${method} /db/products/:id`, method, path: url, expectStatus: status, servers: vela })
  }
  try {
    const counts = await countOverSockets({
      // BENCH_SERVERS narrows the servers counted (a comma list of the names above).
      servers: picked([...new Set(routes.flatMap((t) => t.servers ?? servers))], 'BENCH_SERVERS'),
      targets: routes,
      fileOf: (server) => fileOf(db && server === 'vela' ? 'vela-db' : server),
      envOf: (server) => ({ ...envOf(server), ...(db ? { BENCH_PG_URL: db.url } : {}) }),
    })
    offOnTables(routes, (target, off, on) => {
      const [offCount, onCount] = [counts[target]![off], counts[target]![on]]
      if (offCount === undefined || onCount === undefined) return undefined
      return {
        'instructions/req off': Math.round(offCount),
        'instructions/req on': Math.round(onCount),
        added: Math.round(onCount - offCount),
      }
    })
  } finally {
    await db?.drop()
  }
}

/**
 * Per route, a table of each traced server (`row`'s figures) against the same server untraced;
 * `row` returns `undefined` for a pair that did not serve the route.
 */
function offOnTables(
  routes: readonly LoadTarget[],
  row: (target: string, off: Server, on: Server) => Record<string, number> | undefined,
): void {
  for (const target of routes) {
    console.log(target.name)
    console.table(
      traced.flatMap(([off, on]) => {
        const figures = row(target.name, off, on)
        return figures ? [{ server: on, ...figures }] : []
      }),
    )
  }
}

async function benchTelemetryLoad(): Promise<void> {
  console.log(
    `telemetry: ${rounds} rounds × ${seconds}s, ${connections} connections, ` +
      (rate
        ? `${rate} req/s to every server (autocannon -R)`
        : `as fast as each answers (${hasWrk ? 'wrk -t1' : 'autocannon'})`),
  )
  const results = await measureRounds({
    servers,
    targets,
    rounds,
    seconds,
    connections,
    fileOf,
    envOf,
    rate: rate || undefined,
  })
  offOnTables(targets, (target, off, on) => {
    const rps = (s: Server) => median(results.rps[target]![s]!)
    const cpu = (s: Server) => median(results.cpu[target]![s]!)
    return {
      'off req/s': Math.round(rps(off)),
      'on req/s': Math.round(rps(on)),
      'on/off': +(rps(on) / rps(off)).toFixed(3),
      'CPU µs/req off': +cpu(off).toFixed(2),
      'CPU µs/req on': +cpu(on).toFixed(2),
      'µs added': +(cpu(on) - cpu(off)).toFixed(2),
    }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTelemetry()
