/**
 * What every repository operation shares: the adapter (created by `start`), the transaction in
 * progress for the current async call chain, and the query runner (telemetry.ts).
 *
 * Transactions use AsyncLocalStorage: inside `repo.transaction(fn)` every repo call made by `fn`,
 * however deep, runs on the transaction's connection, without passing a handle around.
 */
import type { AsyncLocalStorage } from 'node:async_hooks'
import type { Adapter, Connection, QueryResult } from '../adapters/adapter.ts'
import { isServerError, toDbError, type DbError } from '../db-error.ts'
import { err, type Err } from '../result.ts'
import { forRead } from '../unavailable.ts'
import type { Runner } from './telemetry.ts'

export interface TxState {
  readonly conn: Connection
  /** Set when a nested transaction rolled back: the outer one can then only roll back too. */
  tainted: { readonly value: unknown } | undefined
  /** What `repo.afterCommit` asked to run once this transaction commits, nested ones' included. */
  readonly afterCommit: (() => void)[]
}

export interface RepoContext {
  readonly name: string
  adapter: Adapter | undefined
  start(): Promise<Adapter>
  readonly tx: AsyncLocalStorage<TxState>
  readonly run: Runner
  /**
   * The repository object itself, handed to `prepareChanges` functions and lifecycle hooks
   * (repo/hooks.ts). `unknown` here: naming its type would tie this module to repo.ts in a cycle.
   */
  self: unknown
}

/**
 * Runs one statement on the current transaction's connection, or on the adapter. `op` and `source`
 * (`'SELECT'`, the table) name its span; raw SQL has neither. Not `async`: it
 * hands on the runner's promise instead of wrapping it in two more (see adapters/pg.ts).
 */
export function exec(
  ctx: RepoContext,
  sql: string,
  params: unknown[],
  op?: string,
  source?: string,
): Promise<QueryResult> {
  const conn = ctx.tx.getStore()?.conn ?? ctx.adapter
  return conn
    ? ctx.run(conn, sql, params, op, source)
    : ctx.start().then((adapter) => ctx.run(adapter, sql, params, op, source))
}

/**
 * Errors the server raised because of the statement or its values become `{ ok: false }`; others
 * (connection lost, a bug) are rethrown, because no caller can handle them as data.
 */
export function failure(error: unknown): Err<DbError> {
  if (isServerError(error)) return err(toDbError(error))
  throw error
}

/**
 * `failure` for reads (`all`, `one`, `get`, `getBy`, `preload`): a statement that changes nothing
 * is safe to run again, so one sent and never answered is plain unavailability (a
 * `DbUnavailableError`, 503), not an unknown outcome. Raw `query` is not known to be a read: it
 * keeps the writes' rule.
 */
export function readFailure(error: unknown): Err<DbError> {
  return failure(forRead(error))
}

/**
 * What a read throws for `error`: reads give values, not results, so an error the server raised
 * becomes a thrown `DbError` (400 for a refused value, else 500); unavailability stays a
 * `DbUnavailableError` (503) and anything else (a bug) is rethrown as it was.
 */
export function throwRead(error: unknown): never {
  const e = forRead(error)
  throw isServerError(e) ? toDbError(e) : e
}
