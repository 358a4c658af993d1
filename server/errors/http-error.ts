/**
 * `throw httpError(404)` or `throw httpError(422, { error: 'no body' })` from a handler, plugin or
 * security callback answers with that status. Without a body the built-in (or the group's status
 * route) page for the status is sent.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError'
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(typeof body === 'string' ? body : `HTTP ${status}`)
  }
}

export function httpError(status: number, body?: unknown, headers?: Readonly<Record<string, string>>): HttpError {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new RangeError(`httpError: status must be an integer from 400 to 599, got ${String(status)}`)
  }
  return new HttpError(status, body, headers)
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError
}

/**
 * An error a library threw to say the request was at fault, in the `http-errors` shape: a `status`
 * from 400 to 499 and a boolean `expose` (whether its message may be shown to the client).
 * `vela/dbl`'s `DbError` for a value the database refused (a malformed uuid in a `where`) is one:
 * a handler that throws it answers 400. By shape, so no library needs to import Vela's classes; an
 * error with a `status` but no `expose` (an HTTP client's "the upstream said 404") stays a 500.
 */
export function isClientFault(value: unknown): value is Error & { status: number; expose: boolean } {
  const e = value as { status?: unknown; expose?: unknown }
  return value instanceof Error && typeof e.expose === 'boolean' && Number.isInteger(e.status) && (e.status as number) >= 400 && (e.status as number) <= 499
}
