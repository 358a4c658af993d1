/**
 * Database-layer benchmark: Repo.get and Repo.insert through the repository against the same
 * statements on bare `pg` and bare PGlite, each behind the same node:http server (bench/dbl/server.ts,
 * one mode per process). Rounds interleave the four modes and the medians are compared, as in
 * bench/runtime.ts.
 *
 *   npm run bench -- dbl
 *   BENCH_ROUNDS (5), BENCH_SECONDS per route (3), BENCH_CONNECTIONS (32), VELA_BENCH_POSTGRES_URL
 * Targets: repo ≥ 0.93 × bare pg, repo ≥ 0.9 × bare PGlite.
 *
 * Second part, queries over several tables (bench/dbl/query-server.ts): a join with a filter and a
 * grouped aggregate through vela/dbl, against the same queries written with knex's builder and as
 * SQL on the bare drivers, on PostgreSQL and PGlite, the six modes interleaved in each round.
 * Target: vela ≥ 0.95 × knex; the ratio to bare drivers is reported. `BENCH_DBL=queries` runs
 * this part alone, `BENCH_DBL=basic` the first. `BENCH_DBL=build-ab BENCH_BASE=<checkout>` times
 * building and compiling the queries in this tree against another (bench/dbl/build-ab.ts).
 *
 * With `BENCH_COUNT=instructions`, both parts count instead of timing (bench/count-sockets.ts):
 * each mode's server under callgrind, one request at a time over one keep-alive connection, the
 * instructions of the server process per request (the driver, the repository, node's HTTP; not
 * PostgreSQL's own work, which is another process, but PGlite's, which runs in the server). The
 * count does not move with the machine's load, where the timed ratios swing by half on a busy
 * machine. `BENCH_MODES` (a comma list of the modes) picks servers; `BENCH_WARMUP`, `BENCH_N`.
 */
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { POSTGRES_URL, freshPostgresDatabase } from '../test/support/services.ts'
import { DDL, SEED } from './dbl/fixtures.ts'
import knex from 'knex'
import { compileSelect } from '../dbl/query/compile.ts'
import {
  QUERY_DDL,
  QUERY_SEED,
  knexJoin,
  knexPlain,
  knexSummary,
  velaJoin,
  velaJoinChain,
  velaPlain,
  velaPlainChain,
  velaSummary,
  velaSummaryChain,
} from './dbl/queries.ts'
import type { LoadTarget } from './load.ts'
import { countOverSockets } from './count-sockets.ts'
import { buildAb } from './dbl/build-ab.ts'
import { hasWrk, measureRounds, median, picked } from './load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const modes = ['pg', 'repo-pg', 'pglite', 'repo-pglite'] as const

const targets: LoadTarget[] = [
  { name: 'GET by id', method: 'GET', path: '/products/42', expectStatus: 200 },
  {
    name: 'insert',
    method: 'POST',
    path: '/products',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }),
    expectStatus: 201,
  },
]

async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    for (const sql of [DDL, SEED, QUERY_DDL, QUERY_SEED]) await client.query(sql)
  } finally {
    await client.end()
  }
}

const parts = (process.env.BENCH_DBL ?? 'basic,queries').split(',')
const counting = process.env.BENCH_COUNT === 'instructions'

/**
 * Instructions per request of each mode's server (`BENCH_MODES` picks), and each mode's count
 * divided by `bare`'s (below 1: fewer instructions than the bare driver).
 */
async function countModes(
  all: readonly string[],
  targets: readonly LoadTarget[],
  server: string,
  url: string,
  bare: (mode: string) => string,
): Promise<void> {
  const servers = picked(all, 'BENCH_MODES')
  console.log(`dbl, counted: instructions per request of the server process under callgrind (${servers.join(', ')})`)
  const counts = await countOverSockets({
    servers,
    targets,
    fileOf: () => fileURLToPath(new URL(server, import.meta.url)),
    envOf: (mode) => ({ BENCH_MODE: mode, BENCH_PG_URL: url }),
  })
  console.table(
    targets.map((t) => {
      const c = counts[t.name]!
      const row: Record<string, string | number> = { route: t.name }
      for (const mode of servers) {
        row[mode] = Math.round(c[mode]!)
        const base = c[bare(mode)]
        if (base !== undefined && bare(mode) !== mode) row[`${mode}/${bare(mode)}`] = +(c[mode]! / base).toFixed(3)
      }
      return row
    }),
  )
}

async function basic(url: string): Promise<void> {
  if (counting) return countModes(modes, targets, './dbl/server.ts', url, (m) => m.replace('repo-', ''))
  console.log(
    `dbl: ${rounds} rounds × ${seconds}s per route, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}, pool size 10`,
  )
  const results = await measureRounds({
    servers: modes,
    targets,
    rounds,
    seconds,
    connections,
    fileOf: () => fileURLToPath(new URL('./dbl/server.ts', import.meta.url)),
    envOf: (mode) => ({ BENCH_MODE: mode, BENCH_PG_URL: url }),
  })
  const rows = targets.map((t) => {
    const m = Object.fromEntries(modes.map((mode) => [mode, median(results.rps[t.name]![mode]!)])) as Record<
      (typeof modes)[number],
      number
    >
    return {
      route: t.name,
      'pg req/s': Math.round(m.pg),
      'repo-pg req/s': Math.round(m['repo-pg']),
      'repo/pg': +(m['repo-pg'] / m.pg).toFixed(3),
      'pglite req/s': Math.round(m.pglite),
      'repo-pglite req/s': Math.round(m['repo-pglite']),
      'repo/pglite': +(m['repo-pglite'] / m.pglite).toFixed(3),
    }
  })
  console.table(rows)
  for (const row of rows) {
    const okPg = row['repo/pg'] >= 0.93
    const okLite = row['repo/pglite'] >= 0.9
    console.log(
      `  ${row.route}: repo/pg ${row['repo/pg']} ${okPg ? 'meets' : 'MISSES'} 0.93; repo/pglite ${row['repo/pglite']} ${okLite ? 'meets' : 'MISSES'} 0.9`,
    )
  }
}

const queryModes = ['pg', 'knex-pg', 'repo-pg', 'pglite', 'knex-pglite', 'repo-pglite'] as const
const queryTargets: LoadTarget[] = [
  { name: 'join + filter', method: 'GET', path: '/orders/pro', expectStatus: 200 },
  { name: 'grouped aggregate', method: 'GET', path: '/summary/open', expectStatus: 200 },
]

/** µs to build and compile one query in-process, no database: the builder's share of a request, steady under load. */
function buildCost(f: () => unknown): number {
  for (let i = 0; i < 20_000; i++) f()
  const n = 100_000
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < n; i++) f()
  return +(Number(process.hrtime.bigint() - t0) / n / 1000).toFixed(2)
}

async function queries(url: string): Promise<void> {
  if (counting)
    return countModes(queryModes, queryTargets, './dbl/query-server.ts', url, (m) => m.replace(/^(repo|knex)-/, ''))
  const k = knex({ client: 'pg' })
  console.log('dbl queries, build + compile per query in-process (µs):')
  console.table([
    {
      query: 'one table, where, limit',
      vela: buildCost(() => compileSelect(velaPlain(7))),
      'vela chain': buildCost(() => compileSelect(velaPlainChain(7))),
      knex: buildCost(() => knexPlain(k, 7).toSQL().toNative()),
    },
    {
      query: 'join + filter',
      vela: buildCost(() => compileSelect(velaJoin('pro'))),
      'vela chain': buildCost(() => compileSelect(velaJoinChain('pro'))),
      knex: buildCost(() => knexJoin(k, 'pro').toSQL().toNative()),
    },
    {
      query: 'grouped aggregate',
      vela: buildCost(() => compileSelect(velaSummary('open'))),
      'vela chain': buildCost(() => compileSelect(velaSummaryChain('open'))),
      knex: buildCost(() => knexSummary(k, 'open').toSQL().toNative()),
    },
  ])
  console.log(
    `dbl queries: ${rounds} rounds × ${seconds}s per route, ${connections} connections, six modes interleaved`,
  )
  const results = await measureRounds({
    servers: queryModes,
    targets: queryTargets,
    rounds,
    seconds,
    connections,
    fileOf: () => fileURLToPath(new URL('./dbl/query-server.ts', import.meta.url)),
    envOf: (mode) => ({ BENCH_MODE: mode, BENCH_PG_URL: url }),
  })
  const rows = queryTargets.map((t) => {
    const m = Object.fromEntries(queryModes.map((mode) => [mode, median(results.rps[t.name]![mode]!)])) as Record<
      (typeof queryModes)[number],
      number
    >
    const r = (a: number, b: number) => +(a / b).toFixed(3)
    return {
      query: t.name,
      'pg req/s': Math.round(m.pg),
      'knex-pg': Math.round(m['knex-pg']),
      'vela-pg': Math.round(m['repo-pg']),
      'vela/knex pg': r(m['repo-pg'], m['knex-pg']),
      'vela/pg': r(m['repo-pg'], m.pg),
      'pglite req/s': Math.round(m.pglite),
      'knex-pglite': Math.round(m['knex-pglite']),
      'vela-pglite': Math.round(m['repo-pglite']),
      'vela/knex pglite': r(m['repo-pglite'], m['knex-pglite']),
      'vela/pglite': r(m['repo-pglite'], m.pglite),
    }
  })
  console.table(rows)
  for (const row of rows) {
    for (const db of ['pg', 'pglite'] as const) {
      const ratio = row[`vela/knex ${db}`]
      console.log(
        `  ${row.query} on ${db}: vela/knex ${ratio} ${ratio >= 0.95 ? 'meets' : 'MISSES'} 0.95; vela/bare ${row[`vela/${db}`]}`,
      )
    }
  }
}

export async function benchDbl(): Promise<void> {
  // The A/B of query building needs no database: BENCH_DBL=build-ab BENCH_BASE=<checkout>.
  if (parts.includes('build-ab')) {
    const base = process.env.BENCH_BASE
    if (!base) throw new Error('BENCH_DBL=build-ab needs BENCH_BASE=<a checkout of the code to compare with>')
    await buildAb(base)
    if (parts.length === 1) return
  }
  const db = await freshPostgresDatabase('vela_bench', process.env.VELA_BENCH_POSTGRES_URL ?? POSTGRES_URL)
  try {
    await seed(db.url)
    if (parts.includes('basic')) await basic(db.url)
    if (parts.includes('queries')) await queries(db.url)
  } finally {
    await db.drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDbl()
