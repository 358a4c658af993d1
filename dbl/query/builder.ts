/**
 * The query value: an immutable description of a SELECT over one schema, built by `from(schema)`
 * and refined by chaining (`from(Product).where('price', '>', 100).orderBy('name').limit(20)`).
 * Every method returns a new query and leaves its receiver as it was, so a base query can be shared
 * and refined in several ways. Each method is also a free function taking the query first
 * (`where(q, …)`, operators.ts and join.ts); methods.ts puts them on the prototype.
 *
 * The query's own parts are fields with names of their own (`conds`, `order`, `maxRows`, …), so
 * they never collide with the methods; compile.ts reads them.
 */
import type { Query, QueryParts } from './types.ts'
import type { AnySchema } from '../schema.ts'
import './methods.ts'
import { derive, EMPTY, QueryValue } from './value.ts'

export { isQuery } from './value.ts'

/**
 * Every part of a new query but its schema, shared, so `from` copies it rather than building it.
 * A query value itself, not frozen (freezing gives it another hidden class): every copy then reads
 * one shape of object, so the constructor's reads stay monomorphic.
 */
const START: QueryParts = new QueryValue({
  kind: 'vela.query',
  schema: undefined as unknown as AnySchema,
  joins: EMPTY,
  conds: EMPTY,
  order: EMPTY,
  maxRows: undefined,
  skipRows: undefined,
  columns: undefined,
  columnsAs: undefined,
  groups: EMPTY,
  havings: EMPTY,
  isDistinct: false,
  rowLock: undefined,
  countRows: false,
  subqueries: false,
  extras: undefined,
})

/**
 * A query over every row of `schema`; refine it with `.where`, `.join`, `.orderBy`, `.select`, ….
 *
 * @example
 * const rows = await repo.all(from(Product).where('price', '>', 100).orderBy('name').limit(20))
 */
export function from<S extends AnySchema>(schema: S): Query<S> {
  const q = derive(START)
  q.schema = schema
  return q as unknown as Query<S>
}

/**
 * The row type a query gives (`repo.all(q)` gives `RowOf<typeof q>[]`).
 *
 * @example
 * const withUser = from(Note).leftJoin('user').select(['id', 'title', 'user.name'])
 * type Row = RowOf<typeof withUser>   // { id: number; title: string; user: { name: string | null } }
 */
export type RowOf<Q> = Q extends { readonly '~row'?: infer R } ? R : never

/** `q` counting its rows: one `{ count }` row (what `repo.count` runs). */
export function withCount<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, { count: number }, J> {
  const n = derive(q)
  n.countRows = true
  return n as unknown as Query<S, { count: number }, J>
}
