import { mkdirSync } from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'
import { resolveDeadlines } from '../deadlines.ts'
import { DbUnavailableError } from '../unavailable.ts'
import type { Adapter, QueryResult, Row } from './adapter.ts'
import { openPglite } from './pglite-template.ts'
import { createTurns } from './turns.ts'

/** Where embedded PGlite keeps its data and how long a query waits for its turn: `createPgliteAdapter`'s options. */
export interface PgliteAdapterOptions {
  /** A folder to keep the data in; omitted = in memory. (The repo's defaults: dbl/repo.ts.) */
  dataDir?: string
  /** How long a query or transaction may wait for its turn (default 5000 ms; 0 = forever). See deadlines.ts. */
  acquireTimeoutMs?: number
}

// Same value shapes as the pg adapter: int8 as number, DATE as 'YYYY-MM-DD'. The type ids
// (`types.INT8`, `types.DATE`) are PostgreSQL's own: written here so PGlite loads with a database only.
const parsers = {
  20: (v: string) => Number(v),
  1082: (v: string) => v,
}

/**
 * Whether `sql` holds more than one statement: a `;` followed by more text. A single statement with
 * a `;` inside a literal or a function body is taken for a script too, which `exec` runs alike.
 */
const isScript = (sql: string) => /;\s*\S/.test(sql)

/**
 * An adapter on embedded PostgreSQL (PGlite, WASM): no server to install. One connection, so queries and transactions
 * take turns (turns.ts): one waiting longer than `acquireTimeoutMs` fails with a
 * `DbUnavailableError` (`acquire_timeout`) instead of waiting forever. In-process, so a
 * statement's outcome is never unknown: it ran to its answer, or (its turn never came) it never
 * ran; no `DbOutcomeUnknownError` here.
 *
 * @example
 * // One in-memory database shared by two repos in a test.
 * const adapter = await createPgliteAdapter()
 * const repo = defineRepo({ adapter })
 * const audit = defineRepo({ name: 'audit', adapter })
 */
export async function createPgliteAdapter(opts: PgliteAdapterOptions = {}): Promise<Adapter> {
  const { acquireTimeoutMs } = resolveDeadlines({ acquireTimeoutMs: opts.acquireTimeoutMs }, 'createPgliteAdapter')
  // PGlite creates the data folder itself but not its parents.
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true })
  // A new database starts from a copy of an empty one (pglite-template.ts): seconds less per start.
  const db = await openPglite(opts.dataDir, { parsers })
  const turn = createTurns(
    acquireTimeoutMs,
    () =>
      new DbUnavailableError(
        'acquire_timeout',
        'PGlite',
        `database PGlite: no turn within ${acquireTimeoutMs} ms (acquireTimeoutMs; it runs one query or transaction at a time, and the current one is still running)`,
      ),
  )
  type Querier = Pick<PGlite, 'query' | 'exec'>
  const run = async <R extends Row>(q: Querier, sql: string, params?: readonly unknown[]) => {
    if (!params?.length && isScript(sql)) return script<R>(q, sql)
    const res = await q.query<R>(sql, params as unknown[] | undefined)
    return { rows: res.rows, rowCount: res.affectedRows || res.rows.length } satisfies QueryResult<R>
  }
  /**
   * Several statements without parameters (a job engine's install SQL, its `BEGIN … COMMIT`
   * blocks): PGlite's `query` takes one statement, `exec` a script, as PostgreSQL's simple
   * protocol does over `pg`. Rows of every statement are joined. A script that fails outside a
   * transaction of ours may leave its own `BEGIN` open on the one session: it is rolled back
   * within the same turn, so no later statement runs in an aborted transaction.
   */
  const script = async <R extends Row>(q: Querier, sql: string): Promise<QueryResult<R>> => {
    try {
      const results = await q.exec(sql)
      const rows = results.flatMap((r) => r.rows as R[])
      return { rows, rowCount: results.reduce((n, r) => n + (r.affectedRows ?? 0), 0) || rows.length }
    } catch (err) {
      if (q === db) await db.query('ROLLBACK').catch(() => {})
      throw err
    }
  }
  const query = <R extends Row>(sql: string, params?: readonly unknown[]) => turn(() => run<R>(db, sql, params))
  return {
    kind: 'pglite',
    query,
    // The transaction holds the turn until it ends; its own statements run inside it.
    transaction: (fn) => turn(() => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) }))),
    // PGlite has a single session: every call is already on "one connection".
    session: (fn) => fn({ query }),
    close: () => db.close(),
  }
}
