/**
 * `DbUnavailableError`: the database could not serve the query in time, or at all (unreachable,
 * connection lost, a deadline passed, the server shutting down or starting up). Unlike a `DbError`
 * it says nothing about the statement or its values, so the repository throws it (as it always
 * threw infrastructure failures) instead of returning `{ ok: false }`.
 *
 * It carries what an HTTP layer needs to answer without knowing about databases: a `status`, a
 * stable `code` and a one-line `message` naming what failed and where (`host:port`, or
 * `PGlite`). `reason` tells the cases apart for logs and metrics. Two kinds, because a client
 * must know whether trying again is safe:
 *
 * - `DbUnavailableError` itself (`status: 503`, `VELA_ERR_DB_UNAVAILABLE`): nothing was applied.
 *   The statement was never sent (no connection, none free in time, the server refused), or the
 *   server answered that it cancelled it (`statement_timeout`: rolled back), or it was a read,
 *   or it ran inside a transaction that can no longer commit. Safe to retry.
 * - `DbOutcomeUnknownError` (`status: 504`, `VELA_ERR_DB_OUTCOME_UNKNOWN`): a write (or a COMMIT)
 *   was sent and no answer came back: the client stopped waiting, or the connection broke. The
 *   server may have applied it (a frozen server runs what is in its socket buffer when it
 *   resumes), so a blind retry may apply it twice. Still a `DbUnavailableError` (`instanceof`,
 *   `isDbUnavailable`), so code that treats the database as down keeps working.
 *
 * `classify(error, ...)` turns a driver error into one, or returns `undefined` for errors the
 * server raised because of the statement (those stay `DbError`s, see db-error.ts).
 */

/** Why the database could not serve a statement, as a `DbUnavailableError`'s `reason`. */
export type UnavailableReason =
  /** Nothing accepts connections there (refused, unknown host, no route). */
  | 'unreachable'
  /** A new connection did not complete its start-up (TCP, TLS, authentication) within `connectTimeoutMs`. */
  | 'connect_timeout'
  /** No pooled connection (or, on PGlite, no turn) became free within `acquireTimeoutMs`. */
  | 'acquire_timeout'
  /** The statement ran past `statementTimeoutMs` (cancelled by the server), or no answer came at all. */
  | 'statement_timeout'
  /** An established connection broke (server killed, network cut). */
  | 'connection_lost'
  /** The server refused to serve: shutting down, starting up, in recovery, too many connections. */
  | 'server_unavailable'
  /** The server refused this client at start-up: authentication failed, no such database or role (not retried). */
  | 'refused'

/** The code of a `DbUnavailableError`: nothing was applied, trying again is safe. */
export const DB_UNAVAILABLE = 'VELA_ERR_DB_UNAVAILABLE'
/** The code of a `DbOutcomeUnknownError`: a write was sent and never answered; it may have been applied. */
export const DB_OUTCOME_UNKNOWN = 'VELA_ERR_DB_OUTCOME_UNKNOWN'

/** The database could not serve the statement, and nothing was applied (503, `VELA_ERR_DB_UNAVAILABLE`). */
export class DbUnavailableError extends Error {
  override readonly name: string = 'DbUnavailableError'
  readonly code: typeof DB_UNAVAILABLE | typeof DB_OUTCOME_UNKNOWN = DB_UNAVAILABLE
  /** The HTTP status a request failing on this should get: 503, with `Retry-After`. */
  readonly status: 503 | 504 = 503
  constructor(
    readonly reason: UnavailableReason,
    /** `host:port` of the server, or `PGlite`. */
    readonly address: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * A write (or a transaction's COMMIT) was sent and no answer came back before the client stopped
 * waiting or the connection broke (504, `VELA_ERR_DB_OUTCOME_UNKNOWN`): it may have been applied.
 * `unavailable` is the failure as it was classified (also the `cause`); `reason` and `address`
 * are its.
 *
 * @example
 * const saved = await repo.insert(cs).catch((e) => {
 *   // Look before writing again: the first attempt may have been applied.
 *   if (isDbOutcomeUnknown(e)) return repo.getBy(Order, { request_id: cs.changes.request_id })
 *   throw e
 * })
 */
export class DbOutcomeUnknownError extends DbUnavailableError {
  override readonly name: string = 'DbOutcomeUnknownError'
  override readonly code = DB_OUTCOME_UNKNOWN
  /** The HTTP status a request failing on this should get: 504, without `Retry-After`. */
  override readonly status = 504
  constructor(readonly unavailable: DbUnavailableError) {
    super(
      unavailable.reason,
      unavailable.address,
      `${unavailable.message}; the statement was sent and may have been applied`,
      { cause: unavailable },
    )
  }
}

/**
 * Whether `value` is a `DbUnavailableError`, a `DbOutcomeUnknownError` included.
 *
 * @example
 * try {
 *   await repo.all(from(Product))
 * } catch (e) {
 *   if (isDbUnavailable(e)) return json(e.status, {}, { error: 'database unavailable' })
 *   throw e
 * }
 */
export function isDbUnavailable(value: unknown): value is DbUnavailableError {
  return value instanceof DbUnavailableError
}

/**
 * Whether `value` is a `DbOutcomeUnknownError`: a write that may have been applied.
 *
 * @example
 * try {
 *   await repo.insert(cs)
 * } catch (e) {
 *   // Not retried blindly: the row may be there already.
 *   if (isDbOutcomeUnknown(e)) return json({ error: 'the order may have been saved; check before trying again' }, { status: 504 })
 *   throw e
 * }
 */
export function isDbOutcomeUnknown(value: unknown): value is DbOutcomeUnknownError {
  return value instanceof DbOutcomeUnknownError
}

/** A read changes nothing, so running it again is safe: its unknown outcome is plain unavailability. */
export function forRead(error: unknown): unknown {
  return error instanceof DbOutcomeUnknownError ? error.unavailable : error
}

/** The deadlines a message names; 0 = none. */
export interface DeadlinesForMessages {
  readonly connectTimeoutMs: number
  readonly acquireTimeoutMs: number
  readonly statementTimeoutMs: number
  /** When the client stops waiting for an answer (the statement timeout plus a grace). */
  readonly answerTimeoutMs: number
}

const refused = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOENT',
])
const broken = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'])
// SQLSTATEs meaning "not now", whatever the statement: 57P01 admin shutdown, 57P02 crash shutdown,
// 57P03 cannot connect now (starting up, recovery), 53300 too many connections.
const serverRefusals = new Set(['57P01', '57P02', '57P03', '53300'])

interface DriverError {
  code?: unknown
  message?: unknown
  errors?: unknown
}

/**
 * The `DbUnavailableError` for a `pg` error, or `undefined` when the error is not about availability.
 * `pg` reports its own timeouts and lost connections with bare messages (no code), so they are
 * matched by message; socket errors by their Node code; the server's refusals by SQLSTATE.
 */
export function classify(error: unknown, address: string, d: DeadlinesForMessages): DbUnavailableError | undefined {
  if (error instanceof DbUnavailableError) return error
  if (typeof error !== 'object' || error === null) return undefined
  const e = error as DriverError
  const code = typeof e.code === 'string' ? e.code : undefined
  const message = typeof e.message === 'string' ? e.message : ''
  const make = (reason: UnavailableReason, text: string) =>
    new DbUnavailableError(reason, address, `database ${address}: ${text}`, { cause: error })

  if (message === 'timeout exceeded when trying to connect') {
    return make(
      'acquire_timeout',
      `no connection free within ${d.acquireTimeoutMs} ms (acquireTimeoutMs; every pooled connection busy or connecting)`,
    )
  }
  if (message === 'Connection terminated due to connection timeout') {
    return make('connect_timeout', `no connection within ${d.acquireTimeoutMs} ms (acquireTimeoutMs)`)
  }
  if (message === 'timeout expired')
    return make('connect_timeout', `no connection within ${d.connectTimeoutMs} ms (connectTimeoutMs)`)
  if (message === 'Query read timeout') {
    return make(
      'statement_timeout',
      `no answer within ${d.answerTimeoutMs} ms (statementTimeoutMs ${d.statementTimeoutMs} + ${d.answerTimeoutMs - d.statementTimeoutMs} ms grace)`,
    )
  }
  if (code === '57014' && /statement timeout/.test(message)) {
    return make('statement_timeout', `statement cancelled after ${d.statementTimeoutMs} ms (statementTimeoutMs)`)
  }
  if (code && serverRefusals.has(code)) return make('server_unavailable', `not serving: ${message} (${code})`)
  if (code?.startsWith('08')) return make('connection_lost', `connection failed: ${message} (${code})`)
  if (code && refused.has(code)) return make('unreachable', `unreachable: ${describeSocketError(code)}`)
  if (code && broken.has(code)) return make('connection_lost', `connection lost: ${describeSocketError(code)}`)
  if (/^Connection terminated/.test(message) || /not queryable/.test(message))
    return make('connection_lost', `connection lost: ${message}`)
  // Node's happy-eyeballs connect reports an AggregateError (one error per address tried).
  if (Array.isArray(e.errors) && e.errors.length) return classify(e.errors[0], address, d)
  return undefined
}

const SQLSTATE = /^[0-9A-Z]{5}$/

/**
 * Whether the statement behind a failure classified as `u` went out to the server and no answer
 * came back: `pg` stopped waiting (`Query read timeout`, the answer deadline) or the connection
 * broke while the statement was in flight. Not when the server answered with a SQLSTATE (57014:
 * it cancelled the statement, so it was rolled back), nor when `pg` refused to send on a client
 * that had already failed (`… not queryable`). Only for statements handed to an established
 * connection: a failure to get one is never "sent".
 */
export function unanswered(error: unknown, u: DbUnavailableError): boolean {
  if (u.reason !== 'statement_timeout' && u.reason !== 'connection_lost') return false
  const e = (typeof error === 'object' && error !== null ? error : {}) as DriverError
  if (typeof e.code === 'string' && SQLSTATE.test(e.code)) return false
  return !(typeof e.message === 'string' && /not queryable/.test(e.message))
}

function describeSocketError(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host name not resolved (${code})`
    case 'ECONNRESET':
      return 'connection reset (ECONNRESET)'
    default:
      return code
  }
}
