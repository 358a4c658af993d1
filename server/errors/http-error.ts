import { warnDeprecated } from '../deprecation.ts'

/**
 * An error that answers the request with its status (made by `httpError`).
 *
 * Thrown from a handler, plugin or security callback, the response is its `body`, or without one
 * the built-in (or the group's status route) page for the status.
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

/** Options of `httpError`: headers added to the response. */
export interface HttpErrorOptions {
  readonly headers?: Readonly<Record<string, string>>
}

/** Whether the third argument is the options object rather than the older headers record. */
function isHttpErrorOptions(value: object): value is HttpErrorOptions {
  for (const key in value)
    if (key !== 'headers' || typeof (value as HttpErrorOptions).headers !== 'object') return false
  return true
}

/**
 * An `HttpError` to throw: the request is answered with `status` and `body`, or that status's error page.
 *
 * `status` is 400 to 599 (another throws a RangeError); `body` is JSON-encoded unless a string;
 * `headers` are added to the response.
 *
 * @example
 * ```ts
 * import { httpError, json, type VelaRequest } from 'vela'
 *
 * const products = new Map([['1', { id: '1', name: 'Lamp' }]])
 *
 * export function show(req: VelaRequest) {
 *   const product = products.get(req.bindings.id ?? '')
 *   if (!product) throw httpError(404)
 *   if (req.header('x-api-version') === '1') throw httpError(410, { error: 'API v1 is gone' }, { headers: { 'x-upgrade': 'v2' } })
 *   return json(product)
 * }
 * ```
 */
export function httpError(status: number, body?: unknown, options?: HttpErrorOptions): HttpError
/**
 * The form with the headers as the third argument.
 *
 * @deprecated Write `httpError(status, body, { headers })`.
 */
export function httpError(status: number, body: unknown, headers: Readonly<Record<string, string>>): HttpError
export function httpError(
  status: number,
  body?: unknown,
  options?: HttpErrorOptions | Readonly<Record<string, string>>,
): HttpError {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new RangeError(`httpError: status must be an integer from 400 to 599, got ${String(status)}`)
  }
  if (options === undefined || isHttpErrorOptions(options)) return new HttpError(status, body, options?.headers)
  warnDeprecated(
    'VELA_DEP_HTTP_ERROR_HEADERS',
    'httpError(status, body, headers) is deprecated: write httpError(status, body, { headers })',
  )
  return new HttpError(status, body, options as Readonly<Record<string, string>>)
}

/**
 * Whether `value` is an `HttpError` (thrown by `httpError`).
 *
 * @example
 * ```ts
 * import { isHttpError } from 'vela'
 *
 * async function fetchOrNull<T>(load: () => Promise<T>): Promise<T | null> {
 *   try {
 *     return await load()
 *   } catch (err) {
 *     if (isHttpError(err) && err.status === 404) return null
 *     throw err
 *   }
 * }
 * ```
 */
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
  return (
    value instanceof Error &&
    typeof e.expose === 'boolean' &&
    Number.isInteger(e.status) &&
    (e.status as number) >= 400 &&
    (e.status as number) <= 499
  )
}
