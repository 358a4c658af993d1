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
  /** Read replicas (replicas.ts), set by `start`; undefined for a repo without any: the fast path. */
  replicas?: ReadReplicas | undefined
  /**
   * The repository object itself, handed to `prepareChanges` functions and lifecycle hooks
   * (repo/hooks.ts). `unknown` here: naming its type would tie this module to repo.ts in a cycle.
   */
  self: unknown
}

/** A repo's read replicas: reads outside a transaction go to them in turn, unless `primary` is set here. */
export interface ReadReplicas {
  readonly adapters: readonly Adapter[]
  next: number
  /** Set inside `repo.onPrimary(fn)`: reads go to the primary. */
  readonly primary: AsyncLocalStorage<true>
}

// The lock clause the query builder writes at the end of a select (values are never in the text).
const LOCKING = / for (?:update|no key update|share|key share)(?: nowait| skip locked)?$/

/** The adapter a read outside a transaction runs on: the next replica, or the primary (forced, or none). */
export function readAdapter(ctx: RepoContext, primary: Adapter): Adapter {
  const r = ctx.replicas
  if (r === undefined || r.primary.getStore() === true) return primary
  const a = r.adapters[r.next]!
  r.next = (r.next + 1) % r.adapters.length
  return a
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
  if (conn === undefined) return ctx.start().then(() => exec(ctx, sql, params, op, source))
  // A read outside a transaction may go to a replica; writes, raw SQL, transactions and locking
  // reads (a replica is read-only: `for update` fails there) never do.
  if (op === 'SELECT' && ctx.replicas !== undefined && conn === ctx.adapter && !LOCKING.test(sql))
    return ctx.run(readAdapter(ctx, ctx.adapter), sql, params, op, source)
  return ctx.run(conn, sql, params, op, source)
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
