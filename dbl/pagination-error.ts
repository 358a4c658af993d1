/**
 * `PaginationError`: what `repo.paginate` throws for pagination input a client sent that cannot be
 * used: a page or size that is not a positive integer or is over its bound, or a cursor that was
 * not made by `repo.paginate` for this query (truncated, edited, or from another ordering). It is
 * the client's mistake, not the server's, so it carries the `http-errors` shape (`status` 400,
 * `expose`): a handler that lets it through answers 400 with the message.
 */

/** The code of a `PaginationError`. */
export const BAD_PAGINATION = 'VELA_ERR_BAD_PAGINATION'

/**
 * Pagination input that cannot be used (`repo.paginate`): a bad `page`, `pageSize` or `limit`, or
 * an invalid `after` cursor. A handler that lets it through answers 400 with its message.
 *
 * @example
 * try {
 *   return json(await repo.paginate(q, { after: req.query.after, limit: 20 }))
 * } catch (e) {
 *   if (e instanceof PaginationError) return json({ error: e.message }, { status: 400 })
 *   throw e
 * }
 */
export class PaginationError extends Error {
  readonly kind = 'pagination_error' as const
  readonly code = BAD_PAGINATION
  /** Which input was refused. */
  readonly param: 'page' | 'pageSize' | 'limit' | 'after'
  readonly status = 400 as const
  /** The message is safe to show to the client that sent the input. */
  readonly expose = true as const

  constructor(param: PaginationError['param'], message: string) {
    super(`vela.dbl: ${message}`)
    this.param = param
  }
}
Object.defineProperty(PaginationError.prototype, 'name', {
  value: 'PaginationError',
  writable: true,
  configurable: true,
})
