/**
 * One server process for the multi-table part of bench/dbl.ts. BENCH_MODE picks the data path; the
 * HTTP layer (bare node:http) is the same for all:
 *   pg / pglite              the SQL the repository sends, written out, on a pg Pool / a PGlite instance
 *   knex-pg / knex-pglite    the same queries written with knex's builder, built per request (on
 *                            PostgreSQL run by knex itself; knex has no PGlite client, so there its SQL runs on PGlite)
 *   repo-pg / repo-pglite    the queries through vela/dbl (join, select, groupBy, sum), repo.all
 * Routes: GET /orders/:tier (join with a filter), GET /summary/:status (grouped aggregate).
 */
import http from 'node:http'
import { PGlite } from '@electric-sql/pglite'
import knex from 'knex'
import pg from 'pg'
import { defineRepo } from '../../dbl/repo.ts'
import { jsonReplies } from './json-reply.ts'
import {
  JOIN_SQL,
  QUERY_DDL,
  QUERY_SEED,
  SUMMARY_SQL,
  knexJoin,
  knexSummary,
  velaJoin,
  velaSummary,
} from './queries.ts'

const mode = process.env.BENCH_MODE as 'pg' | 'knex-pg' | 'repo-pg' | 'pglite' | 'knex-pglite' | 'repo-pglite'
const url = process.env.BENCH_PG_URL!
const POOL = 10

type Row = Record<string, unknown>
interface Ops {
  orders(tier: string): Promise<Row[]>
  summary(status: string): Promise<Row[]>
}

// numeric (sum of products) comes back as text from both drivers; the repository converts it, so do the others.
const numbers = (rows: Row[]) => rows.map((r) => ({ ...r, total: r.total === null ? null : Number(r.total) }))

async function pglite(): Promise<PGlite> {
  const db = await PGlite.create()
  await db.exec(QUERY_DDL)
  await db.exec(QUERY_SEED)
  return db
}

async function opsFor(): Promise<Ops> {
  if (mode === 'pg' || mode === 'pglite') {
    const run: (sql: string, params: unknown[]) => Promise<Row[]> =
      mode === 'pg'
        ? (
            (pool) => async (sql, params) =>
              (await pool.query(sql, params)).rows
          )(new pg.Pool({ connectionString: url, max: POOL }))
        : (
            (db) => async (sql, params) =>
              (await db.query<Row>(sql, params)).rows
          )(await pglite())
    return {
      orders: (tier) => run(JOIN_SQL, [tier, 50]),
      summary: async (status) => numbers(await run(SUMMARY_SQL, [status])),
    }
  }
  if (mode === 'knex-pg') {
    const k = knex({ client: 'pg', connection: url, pool: { min: 0, max: POOL } })
    return { orders: (tier) => knexJoin(k, tier), summary: async (status) => numbers(await knexSummary(k, status)) }
  }
  if (mode === 'knex-pglite') {
    const k = knex({ client: 'pg' })
    const db = await pglite()
    const run = async (b: { toSQL(): { toNative(): { sql: string; bindings: readonly unknown[] } } }) => {
      const { sql, bindings } = b.toSQL().toNative()
      return (await db.query<Row>(sql, bindings as unknown[])).rows
    }
    return {
      orders: (tier) => run(knexJoin(k, tier)),
      summary: async (status) => numbers(await run(knexSummary(k, status))),
    }
  }
  const repo = defineRepo(mode === 'repo-pg' ? { url, poolSize: POOL } : { url: 'memory:' })
  await repo.start()
  if (mode === 'repo-pglite') {
    const a = await repo.adapter()
    for (const s of [...QUERY_DDL.split(';\n'), ...QUERY_SEED.split(';\n')]) await a.query(s)
  }
  return {
    orders: async (tier) => (await repo.all(velaJoin(tier as 'pro'))) as Row[],
    summary: async (status) => (await repo.all(velaSummary(status as 'open'))) as Row[],
  }
}

const ops = await opsFor()

const server = http.createServer((req, res) => {
  const { reply, fail } = jsonReplies(res)
  const [, route, arg] = (req.url ?? '').split('/')
  if (req.method === 'GET' && route === 'orders' && arg)
    return void ops.orders(arg).then((rows) => reply(200, rows), fail)
  if (req.method === 'GET' && route === 'summary' && arg)
    return void ops.summary(arg).then((rows) => reply(200, rows), fail)
  reply(404, { error: 'no route' })
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as { port: number }).port}`)
})
