/**
 * `MultipleResultsError`: what `repo.one` and `repo.getBy` throw when more than one row matches,
 * as Ecto's `Repo.one` raises. Picking one of them would return whichever row the database happened
 * to read first, so it is a bug in the query (or data that broke an assumption), not an answer.
 */

/**
 * More than one row matched a read that expects at most one (`repo.one`, `repo.getBy`). A handler
 * that lets it through answers 500 (it is logged).
 *
 * @example
 * try {
 *   const user = await repo.getBy(User, { email })
 * } catch (e) {
 *   if (e instanceof MultipleResultsError) console.error(`${e.table}: several rows for one email`)
 *   throw e
 * }
 */
export class MultipleResultsError extends Error {
  readonly kind = 'multiple_results' as const
  /** The table the query read. */
  readonly table: string
  readonly status = 500 as const

  constructor(table: string) {
    super(`vela.dbl: expected at most one row from ${table}, got several (add a condition, or use repo.all)`)
    this.table = table
  }
}
Object.defineProperty(MultipleResultsError.prototype, 'name', {
  value: 'MultipleResultsError',
  writable: true,
  configurable: true,
})
