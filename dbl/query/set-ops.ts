/**
 * Set operations: `union`, `unionAll`, `intersect`, `except`. Each combines a query's rows with
 * another query's, which must have the same column names (checked by the types) and number
 * (checked when the query is built); a union's rows are typed as either side's.
 * The first query's `orderBy`, `limit` and `offset` apply to the combined rows, and its sort terms
 * then name output columns; the other query keeps its own (it is written in parentheses).
 *
 *   from(Customer).select(['name']).union(from(Label).select(['name'])).orderBy('name').limit(10)
 */
import { sqlOf } from '../sql.ts'
import type { Query, QueryOfRows, QueryParts, SameColumns, SetOpKind } from './types.ts'
import { deriveExtras, isQuery } from './value.ts'
import type { AnySchema } from '../schema.ts'

/** How many columns a query selects. */
export function columnCount(q: QueryParts): number {
  if (q.columns) return q.columns.length
  if (q.columnsAs) return Object.keys(q.columnsAs).length
  return sqlOf(q.schema).columns.length
}

function combine(q: QueryParts, op: SetOpKind, other: unknown): QueryParts {
  if (!isQuery(other)) throw new Error(`${op}: give a query (from(…))`)
  if (q.rowLock || other.rowLock) throw new Error(`${op}: a combined query cannot lock rows`)
  if (q.countRows || other.countRows) throw new Error(`${op}: count the combined query with repo.count instead`)
  const a = columnCount(q)
  const b = columnCount(other)
  if (a !== b)
    throw new Error(`${op}: both queries must select as many columns (${a} here, ${b} in ${other.schema.table})`)
  return deriveExtras(q, { setOps: [...(q.extras?.setOps ?? []), { op, query: other }] })
}

/**
 * UNION: the rows of `q` and of `other`, each distinct row once. `other` must give rows of the
 * same type; `q`'s `orderBy`, `limit` and `offset` apply to the result.
 *
 * @example
 * // every name, of a customer or a label, once, sorted
 * await repo.all(union(from(Customer).select(['name']), from(Label).select(['name'])).orderBy('name'))
 */
export function union<S extends AnySchema, R, J, R2 extends SameColumns<R>>(
  q: Query<S, R, J>,
  other: QueryOfRows<R2>,
): Query<S, R | R2, J> {
  return combine(q, 'union', other) as unknown as Query<S, R | R2, J>
}

/**
 * UNION ALL: the rows of `q`, then those of `other`, duplicates kept (cheaper than `union`: no sort).
 *
 * @example
 * await repo.all(unionAll(from(Customer).select(['name']), from(Label).select(['name'])))
 */
export function unionAll<S extends AnySchema, R, J, R2 extends SameColumns<R>>(
  q: Query<S, R, J>,
  other: QueryOfRows<R2>,
): Query<S, R | R2, J> {
  return combine(q, 'union all', other) as unknown as Query<S, R | R2, J>
}

/**
 * INTERSECT: the distinct rows both `q` and `other` give.
 *
 * @example
 * // customers with a work order
 * await repo.all(intersect(from(Customer).select(['id']), from(WorkOrder).select({ id: 'customer_id' })))
 */
export function intersect<S extends AnySchema, R, J, R2 extends SameColumns<R>>(
  q: Query<S, R, J>,
  other: QueryOfRows<R2>,
): Query<S, R, J> {
  return combine(q, 'intersect', other) as unknown as Query<S, R, J>
}

/**
 * EXCEPT: the distinct rows of `q` that `other` does not give.
 *
 * @example
 * // customers without a work order
 * await repo.all(except(from(Customer).select(['id']), from(WorkOrder).select({ id: 'customer_id' })))
 */
export function except<S extends AnySchema, R, J, R2 extends SameColumns<R>>(
  q: Query<S, R, J>,
  other: QueryOfRows<R2>,
): Query<S, R, J> {
  return combine(q, 'except', other) as unknown as Query<S, R, J>
}
