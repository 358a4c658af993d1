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
