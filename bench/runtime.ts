/**
 * Runtime benchmark: bare node:http, a bare srvx fetch handler (the web-API layer under h3), bare
 * h3, Fastify and Vela serving the same three routes, and Fastify and Vela a fourth: a POST whose
 * body is checked against the same JSON Schema (Vela's `validate.body`, Fastify's `schema.body`).
 * Rounds are interleaved (every server once per round, each a fresh process) and the medians are
 * compared, so drift of the machine during the run hits every server alike.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50),
 *   BENCH_SERVERS (which extra servers to run, comma-separated, or `none`; default `node,srvx`): the
 *   baselines `node` and `srvx`; `vela-noid`, Vela without the id header on its replies
 *   (`server.requestId: false`), to see what the id costs in the same rounds; `fastify-id`, Fastify
 *   sending its `req.id` back in `x-request-id` from an `onRequest` hook, as Vela does by default
 */
import { fileURLToPath } from 'node:url'
import type { LoadTarget } from './load.ts'
import { hasWrk, measureRounds, median } from './load.ts'
import { countOverSockets } from './count-sockets.ts'
import { TOKEN } from './servers/fixtures.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

const allServers = ['node', 'srvx', 'h3', 'fastify', 'fastify-id', 'vela', 'vela-noid'] as const
// Vela, h3 and Fastify always run (the ratios need them); BENCH_SERVERS picks which extra servers do.
const extras = (process.env.BENCH_SERVERS ?? 'node,srvx').split(',')
const servers = allServers.filter((s) => s === 'vela' || s === 'h3' || s === 'fastify' || extras.includes(s))
const targets: LoadTarget[] = [
  { name: 'GET /heartbeat', method: 'GET', path: '/heartbeat', expectStatus: 200 },
  { name: 'GET /api/products/:id', method: 'GET', path: '/api/products/42', expectStatus: 200 },
  {
    name: 'POST /api/products (JSON)',
    method: 'POST',
    path: '/api/products',
    headers: { 'content-type': 'application/json', authorization: TOKEN },
    body: JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }),
    expectStatus: 201,
  },
  // The same product through a JSON Schema on the route: Vela's `validate.body` against Fastify's `schema.body`.
  {
    name: 'POST /api/products/checked (JSON Schema)',
    method: 'POST',
    path: '/api/products/checked',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }),
    expectStatus: 201,
    servers: ['vela', 'vela-noid', 'fastify', 'fastify-id'],
  },
]

const fileOf = (server: string) =>
  fileURLToPath(new URL(`./servers/${server.replace(/-(no)?id$/, '')}.ts`, import.meta.url))
const envOf = (server: string): Record<string, string> =>
  server === 'vela-noid' ? { BENCH_REQUEST_ID: '0' } : server === 'fastify-id' ? { BENCH_REQUEST_ID: '1' } : {}

/**
 * `BENCH_COUNT=instructions`: each server's machine instructions per request over a socket, under
 * callgrind (count-sockets.ts), with the same ratios as the timed tables.
 */
async function countRuntime(): Promise<void> {
  console.log('runtime, counted: server instructions per request over one keep-alive connection, under callgrind')
  const counts = await countOverSockets({ servers, targets, fileOf, envOf })
  console.log('instructions per request; ratios > 1 mean Vela does less work')
  workTable((t, s) => counts[t.name]?.[s], 0)
}

// A route some servers do not serve has no figure for them: '-' in the tables.
const ratio = (a: number | undefined, b: number | undefined) => (a && b ? +(a / b).toFixed(3) : '-')

/**
 * One row per route: each server's `figure` (CPU µs or instructions per request, `digits` after
 * the point), then the work h3 and Fastify do per request divided by Vela's.
 */
function workTable(figure: (t: LoadTarget, server: string) => number | undefined, digits: number): void {
  console.table(
    targets.map((t) => {
      const c = Object.fromEntries(servers.map((s) => [s, figure(t, s)]))
      return {
        route: t.name,
        ...Object.fromEntries(servers.map((s) => [s, c[s] === undefined ? '-' : +c[s].toFixed(digits)])),
        'h3/vela': ratio(c.h3, c.vela),
        'fastify/vela': ratio(c.fastify, c.vela),
        // Like for like: both send the id header, or neither does.
        ...(c['fastify-id'] ? { 'fastify-id/vela': ratio(c['fastify-id'], c.vela) } : {}),
        ...(c['vela-noid'] ? { 'fastify/vela-noid': ratio(c.fastify, c['vela-noid']) } : {}),
      }
    }),
  )
}

export async function benchRuntime(): Promise<void> {
  if (process.env.BENCH_COUNT === 'instructions') return countRuntime()
  console.log(
    `runtime: ${rounds} rounds × ${seconds}s per route, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}`,
  )
  const results = await measureRounds({
    servers,
    targets,
    rounds,
    seconds,
    connections,
    fileOf,
    envOf,
  })
  const of = (xs: number[] | undefined) => (xs ? median(xs) : undefined)
  console.log('\nrequests per second (median of rounds); ratios > 1 mean Vela is faster')
  console.table(
    targets.map((t) => {
      const m = Object.fromEntries(servers.map((s) => [s, of(results.rps[t.name]![s])]))
      return {
        route: t.name,
        ...Object.fromEntries(servers.map((s) => [s, m[s] === undefined ? '-' : Math.round(m[s])])),
        'vela/h3': ratio(m.vela, m.h3),
        'vela/fastify': ratio(m.vela, m.fastify),
        ...(m.node ? { 'h3/node': ratio(m.h3, m.node) } : {}),
      }
    }),
  )
  // CPU time per request does not depend on how much CPU the load generator left the server.
  console.log('server CPU µs per request (median of rounds); ratios > 1 mean Vela does less work')
  workTable((t, s) => of(results.cpu[t.name]![s]), 2)
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRuntime()
