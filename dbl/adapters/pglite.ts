import { mkdirSync } from 'node:fs'
import { PGlite, types } from '@electric-sql/pglite'
import type { Adapter, QueryResult, Row } from './adapter.ts'

export interface PgliteAdapterOptions {
  /** A folder to keep the data in; omitted = in memory. (The repo's defaults: dbl/repo.ts.) */
  dataDir?: string
}

// Same value shapes as the pg adapter: int8 as number, DATE as 'YYYY-MM-DD'.
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.DATE]: (v: string) => v,
}

/** Embedded PostgreSQL (WASM): no server to install. One connection; queries are serialised by PGlite. */
export async function createPgliteAdapter(opts: PgliteAdapterOptions = {}): Promise<Adapter> {
  // PGlite creates the data folder itself but not its parents.
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true })
  const db = await PGlite.create(opts.dataDir, { parsers })
  type Querier = Pick<PGlite, 'query'>
  const run = async <R extends Row>(q: Querier, sql: string, params?: readonly unknown[]) => {
    const res = await q.query<R>(sql, params as unknown[] | undefined)
    return { rows: res.rows, rowCount: res.affectedRows || res.rows.length } satisfies QueryResult<R>
  }
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    // PGlite has a single session: every call is already on "one connection".
    session: (fn) => fn({ query: (sql, params) => run(db, sql, params) }),
    close: () => db.close(),
  }
}
