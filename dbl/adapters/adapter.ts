/**
 * The one interface the repository and the migrator talk to. Two thin implementations: `pg.ts`
 * (a PostgreSQL server through a `pg` pool) and `pglite.ts` (embedded PGlite). SQL is built by knex
 * elsewhere; adapters only run it, so the per-query path is one driver call.
 *
 * Both bound their waits (deadlines.ts) and throw a `DbUnavailableError` (unavailable.ts) when the
 * database cannot serve: unreachable, lost, or past a deadline. Errors the server raised because
 * of the statement pass through as the driver gave them.
 */

/** One row as the driver returns it: column name to value. */
export type Row = Record<string, unknown>

/** What running a statement gives: the rows it returned and how many rows it returned or affected. */
export interface QueryResult<R extends Row = Row> {
  rows: R[]
  /** Rows returned or affected. */
  rowCount: number
}

/** Something that runs SQL: the adapter itself, or a connection inside a transaction or session. */
export interface Connection {
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>
}

/** A database the repository and the migrator run SQL on: a PostgreSQL server (`createPgAdapter`) or embedded PGlite (`createPgliteAdapter`). */
export interface Adapter extends Connection {
  readonly kind: 'pg' | 'pglite'
  /** Runs `fn` inside BEGIN … COMMIT on one connection; any throw rolls back and rethrows. */
  transaction<T>(fn: (conn: Connection) => Promise<T>): Promise<T>
  /**
   * Runs `fn` on one dedicated connection without a transaction (session-scoped advisory locks),
   * with no statement deadline: the migrator's work under its lock may take minutes.
   */
  session<T>(fn: (conn: Connection) => Promise<T>): Promise<T>
  close(): Promise<void>
}
