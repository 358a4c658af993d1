/**
 * Every repository operation resolves to a tagged result instead of throwing for expected failures
 * (Ecto's `{:ok, value} | {:error, reason}`), so callers branch on `ok` and TypeScript narrows.
 */

export interface Ok<T> {
  readonly ok: true
  readonly value: T
}

export interface Err<E> {
  readonly ok: false
  readonly error: E
}

export type Result<T, E> = Ok<T> | Err<E>

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value }
}

export function err<E>(error: E): Err<E> {
  return { ok: false, error }
}

/** True for a `{ ok, value | error }` object: used where a user function may return a result. */
export function isResult(value: unknown): value is Result<unknown, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { ok?: unknown }).ok === 'boolean' &&
    ('value' in value || 'error' in value)
  )
}
