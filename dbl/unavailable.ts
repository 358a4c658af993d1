/**
 * `DbUnavailableError`: the database could not serve the query in time, or at all (unreachable,
 * connection lost, a deadline passed, the server shutting down or starting up). Unlike a `DbError`
 * it says nothing about the statement or its values, so the repository throws it (as it always
 * threw infrastructure failures) instead of returning `{ ok: false }`.
 *
 * It carries what an HTTP layer needs to answer without knowing about databases: `status: 503`,
 * a stable `code` (`VELA_ERR_DB_UNAVAILABLE`) and a one-line `message` naming what failed and
 * where (`host:port`, or `PGlite`). `reason` tells the cases apart for logs and metrics.
 *
 * `classify(error, ...)` turns a driver error into one, or returns `undefined` for errors the
 * server raised because of the statement (those stay `DbError`s, see db_error.ts).
 */

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

export const DB_UNAVAILABLE = 'VELA_ERR_DB_UNAVAILABLE'

export class DbUnavailableError extends Error {
  override readonly name = 'DbUnavailableError'
  readonly code = DB_UNAVAILABLE
  /** The HTTP status a request failing on this should get. */
  readonly status = 503
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

export function isDbUnavailable(value: unknown): value is DbUnavailableError {
  return value instanceof DbUnavailableError
}

/** The deadlines a message names; 0 = none. */
export interface DeadlinesForMessages {
  readonly connectTimeoutMs: number
  readonly acquireTimeoutMs: number
  readonly statementTimeoutMs: number
  /** When the client stops waiting for an answer (the statement timeout plus a grace). */
  readonly answerTimeoutMs: number
}

const refused = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOENT'])
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
  const make = (reason: UnavailableReason, text: string) => new DbUnavailableError(reason, address, `database ${address}: ${text}`, { cause: error })

  if (message === 'timeout exceeded when trying to connect') {
    return make('acquire_timeout', `no connection free within ${d.acquireTimeoutMs} ms (acquireTimeoutMs; every pooled connection busy or connecting)`)
  }
  if (message === 'Connection terminated due to connection timeout') {
    return make('connect_timeout', `no connection within ${d.acquireTimeoutMs} ms (acquireTimeoutMs)`)
  }
  if (message === 'timeout expired') return make('connect_timeout', `no connection within ${d.connectTimeoutMs} ms (connectTimeoutMs)`)
  if (message === 'Query read timeout') {
    return make('statement_timeout', `no answer within ${d.answerTimeoutMs} ms (statementTimeoutMs ${d.statementTimeoutMs} + ${d.answerTimeoutMs - d.statementTimeoutMs} ms grace)`)
  }
  if (code === '57014' && /statement timeout/.test(message)) {
    return make('statement_timeout', `statement cancelled after ${d.statementTimeoutMs} ms (statementTimeoutMs)`)
  }
  if (code && serverRefusals.has(code)) return make('server_unavailable', `not serving: ${message} (${code})`)
  if (code?.startsWith('08')) return make('connection_lost', `connection failed: ${message} (${code})`)
  if (code && refused.has(code)) return make('unreachable', `unreachable: ${describeSocketError(code)}`)
  if (code && broken.has(code)) return make('connection_lost', `connection lost: ${describeSocketError(code)}`)
  if (/^Connection terminated/.test(message) || /not queryable/.test(message)) return make('connection_lost', `connection lost: ${message}`)
  // Node's happy-eyeballs connect reports an AggregateError (one error per address tried).
  if (Array.isArray(e.errors) && e.errors.length) return classify(e.errors[0], address, d)
  return undefined
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
