/**
 * The runtime side of queries (types.ts has the types): the one class of query values, the copy
 * every operator starts from, and the test for a query. Kept apart so the operators and the
 * methods (methods.ts) can use them without importing `from`.
 */
import type { Joins, JoinSpec } from './paths.ts'
import type { Cond, HavingCond, Query, QueryExtras, QueryParts } from './types.ts'
import type { AnySchema } from '../schema.ts'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The one class of query values: the fields are set in one order in the constructor, so every
 * query has the same layout and the compiler's reads of them stay fast.
 */
export class QueryValue implements QueryParts {
  readonly kind: 'vela.query'
  readonly schema: AnySchema
  readonly joins: readonly JoinSpec[]
  readonly conds: readonly Cond[]
  readonly order: QueryParts['order']
  readonly maxRows: number | undefined
  readonly skipRows: number | undefined
  readonly columns: readonly string[] | undefined
  readonly columnsAs: QueryParts['columnsAs']
  readonly groups: readonly string[]
  readonly havings: readonly HavingCond[]
  readonly isDistinct: boolean
  readonly rowLock: QueryParts['rowLock']
  readonly countRows: boolean
  readonly subqueries: boolean
  readonly extras: QueryExtras | undefined

  constructor(q: QueryParts) {
    this.kind = 'vela.query'
    this.schema = q.schema
    this.joins = q.joins
    this.conds = q.conds
    this.order = q.order
    this.maxRows = q.maxRows
    this.skipRows = q.skipRows
    this.columns = q.columns
    this.columnsAs = q.columnsAs
    this.groups = q.groups
    this.havings = q.havings
    this.isDistinct = q.isDistinct
    this.rowLock = q.rowLock
    this.countRows = q.countRows
    this.subqueries = q.subqueries
    this.extras = q.extras
  }
}

/** A copy of `q` to change one part of before returning it: how every operator makes its new query. */
export function derive(q: QueryParts): Mutable<QueryValue> {
  return new QueryValue(q)
}

/**
 * A copy of `q` with `change` merged into its rarely used clauses (`extras`).
 *
 * @example
 * const n = deriveExtras(q, { distinctFields: ['customer_id'] })
 */
export function deriveExtras(q: QueryParts, change: QueryExtras): Mutable<QueryValue> {
  const n = derive(q)
  n.extras = q.extras ? { ...q.extras, ...change } : change
  return n
}

/** The empty list every new query starts with, shared. */
export const EMPTY: readonly never[] = Object.freeze([])

/**
 * Whether `value` is a query built by `from`.
 *
 * @example
 * isQuery(from(Product))   // true
 */
export function isQuery(value: unknown): value is Query<AnySchema, unknown, Joins> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.query'
}
