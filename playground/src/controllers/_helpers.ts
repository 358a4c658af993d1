// Shared by the controllers. Files starting with `_` are not controllers: discovery skips them.
import { status } from 'vela'
import type { VelaRequest } from 'vela'
import type { DbError, Result } from 'vela/dbl'

/** `:id` as a database id, or undefined when it cannot be one (not a positive integer). */
export function idOf(req: VelaRequest): number | undefined {
  const id = Number(req.bindings.id)
  return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/** The `{ error }` answers. */
export const error = (code: 400 | 404 | 422, message: string) => status(code, { error: message })

/**
 * The value of a repository call that is not expected to fail; a failure (a database error) is
 * thrown, so the request ends in a 500 whose log line has the error's stack.
 *
 * @example
 * const products = await orThrow(repo.all(orderBy(from(Product), 'id')))
 */
export async function orThrow<T, E>(pending: Promise<Result<T, E>>): Promise<T> {
  const res = await pending
  if (!res.ok) throw res.error
  return res.value
}

/**
 * The one row a query by key finds, or undefined when there is none; a database failure is thrown.
 *
 * @example
 * const note = await found(repo.one(where(from(Note), { id })))
 */
export async function found<T>(
  pending: Promise<Result<T, 'not_found' | 'multiple_results' | DbError>>,
): Promise<T | undefined> {
  const res = await pending
  if (res.ok) return res.value
  if (res.error === 'not_found') return undefined
  throw res.error === 'multiple_results' ? new Error('a query by key matched several rows') : res.error
}
