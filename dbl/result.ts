/**
 * Every repository operation resolves to a tagged result instead of throwing for expected failures
 * (Ecto's `{:ok, value} | {:error, reason}`), so callers branch on `ok` and TypeScript narrows.
 */

/** A success: `ok: true` and the `value`. */
export interface Ok<T> {
  readonly ok: true
  readonly value: T
}

/** A failure: `ok: false` and the `error`. */
export interface Err<E> {
  readonly ok: false
  readonly error: E
}

/** What a repository operation resolves to: `Ok<T>` or `Err<E>`; branch on `ok` and TypeScript narrows. */
export type Result<T, E> = Ok<T> | Err<E>

/**
 * A success holding `value`.
 *
 * @example
 * const found = ok({ id: 1 }) // { ok: true, value: { id: 1 } }
 * if (found.ok) console.log(found.value.id)
 */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value }
}

/**
 * A failure holding `error`.
 *
 * @example
 * function parseId(raw: string): Result<number, string> {
 *   const id = Number(raw)
 *   return Number.isInteger(id) && id > 0 ? ok(id) : err('not an id')
 * }
 */
export function err<E>(error: E): Err<E> {
  return { ok: false, error }
}

/**
 * True for a `{ ok, value | error }` object: used where a user function may return a result.
 *
 * @example
 * function describe(value: unknown): string {
 *   if (!isResult(value)) return 'not a result'
 *   return value.ok ? 'ok' : `failed: ${String(value.error)}`
 * }
 * describe(err('not_found')) // 'failed: not_found'
 */
export function isResult(value: unknown): value is Result<unknown, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { ok?: unknown }).ok === 'boolean' &&
    ('value' in value || 'error' in value)
  )
}
