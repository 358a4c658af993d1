/**
 * `repo.paginate`: a page of a query's rows, two ways (the two Ecto's Scrivener and Paginator made
 * familiar).
 *
 * - By page number, `{ page, pageSize }`: `LIMIT` / `OFFSET` on the query, and a `count` of it
 *   for `total` and `totalPages`. For numbered pages a user can jump between; the database still
 *   reads and skips every row before the page, and a row inserted before the page shifts it.
 * - By cursor, `{ after, limit }`: the rows after the last one of the previous page, found by the
 *   ordering's values (query/keyset.ts), with one row more than `limit` read to tell whether a
 *   next page exists. As fast on the thousandth page as on the first, and stable under inserts
 *   and deletes; no total, no jumping.
 *
 * Page numbers, sizes and cursors usually come from a request, so a bad one is a
 * `PaginationError` (400). A query that cannot be paginated (its own `limit`, no ordering ending in
 * the primary key for a cursor) is a bug in the code, and throws a plain `Error`.
 */
import { PaginationError } from '../pagination-error.ts'
import { afterCond, decodeCursor, encodeCursor, keyOf, keysetOf } from '../query/keyset.ts'
import { limit, offset, where } from '../query/operators.ts'
import type { Query, QueryParts } from '../query/types.ts'
import { derive } from '../query/value.ts'
import type { AnySchema } from '../schema.ts'
import type { RepoContext } from './context.ts'
import { all, count } from './read.ts'

/** `repo.paginate` by page number. Numbers may be given as the strings a query string holds. */
export interface PageOptions {
  /** 1-based; default 1. A page past the last gives no entries. */
  readonly page?: number | string | undefined
  /** Rows per page; default 20, at most `maxPageSize`. */
  readonly pageSize?: number | string | undefined
  /** The largest `pageSize` accepted (default 100): a client cannot ask for the whole table. */
  readonly maxPageSize?: number
}

/** One page by number: its rows, where it is, and how many rows and pages the query has. */
export interface Page<R> {
  readonly entries: R[]
  readonly page: number
  readonly pageSize: number
  /** Rows the whole query gives. */
  readonly total: number
  /** `ceil(total / pageSize)`, at least 1 (an empty result is one empty page). */
  readonly totalPages: number
}

/** `repo.paginate` by cursor: the rows after `after`, at most `limit` of them. */
export interface CursorOptions {
  /** The `after` of the previous page; `null` or omitted for the first page. */
  readonly after?: string | null | undefined
  /** Rows per page, at most `maxLimit`. */
  readonly limit: number | string
  /** The largest `limit` accepted (default 100). */
  readonly maxLimit?: number
}

/** One page by cursor: its rows and the cursor of the next page (`null` on the last one). */
export interface CursorPage<R> {
  readonly entries: R[]
  /** Pass as `after` for the next page; `null` when this page is the last. */
  readonly after: string | null
  readonly limit: number
}

/** A whole number within [1, max] from a number or a string of digits; a `PaginationError` otherwise. */
function bounded(param: 'page' | 'pageSize' | 'limit', raw: number | string, max: number): number {
  const n = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : raw
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > max)
    throw new PaginationError(
      param,
      `${param} must be a whole number from 1 to ${max === Number.MAX_SAFE_INTEGER ? 'any' : max}, got ${JSON.stringify(raw)}`,
    )
  return n
}

function checkUnbounded(q: QueryParts): void {
  if (q.maxRows !== undefined || q.skipRows !== undefined)
    throw new Error('repo.paginate: the query must have no limit or offset of its own (paginate sets them)')
}

/** A page by number (see the module doc). */
export async function pageOf<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
  opts: PageOptions,
): Promise<Page<R>> {
  checkUnbounded(q)
  const page = bounded('page', opts.page ?? 1, Number.MAX_SAFE_INTEGER)
  const pageSize = bounded('pageSize', opts.pageSize ?? 20, opts.maxPageSize ?? 100)
  const total = await count(ctx, q)
  const totalPages = Math.max(1, Math.ceil(total / pageSize))
  const skip = (page - 1) * pageSize
  // Without an ordering, pages would come in whatever order the database reads rows.
  const ordered = q.order.length || q.groups.length || q.isDistinct || q.columnsAs ? q : orderedByKey(q)
  const entries = skip < total ? await all(ctx, offset(limit(ordered, pageSize), skip)) : []
  return { entries, page, pageSize, total, totalPages }
}

function orderedByKey<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, R, J> {
  const n = derive(q)
  n.order = q.schema.primaryKeys.map((k) => [k, 'asc'] as const)
  return n as unknown as Query<S, R, J>
}

/** A page by cursor (see the module doc). */
export async function cursorPageOf<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
  opts: CursorOptions,
): Promise<CursorPage<R>> {
  checkUnbounded(q)
  const ks = keysetOf(q, 'repo.paginate', false)
  const n = bounded('limit', opts.limit, opts.maxLimit ?? 100)
  const start =
    opts.after === undefined || opts.after === null ? q : where(q, afterCond(ks, decodeCursor(ks, opts.after)) as never)
  // One row more than asked tells whether there is a next page without a count.
  const rows = await all(ctx, limit(start, n + 1))
  const entries = rows.length > n ? rows.slice(0, n) : rows
  const after = rows.length > n ? encodeCursor(ks, keyOf(ks, entries[n - 1] as Record<string, unknown>)) : null
  return { entries, after, limit: n }
}

/** `repo.paginate`: by cursor when the options name `after` or `limit`, else by page number. */
export function paginate<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
  opts: PageOptions | CursorOptions = {},
): Promise<Page<R> | CursorPage<R>> {
  const byCursor = 'after' in opts || 'limit' in opts
  if (byCursor && ('page' in opts || 'pageSize' in opts))
    throw new Error('repo.paginate: give { page, pageSize } or { after, limit }, not both')
  return byCursor ? cursorPageOf(ctx, q, opts as CursorOptions) : pageOf(ctx, q, opts as PageOptions)
}
