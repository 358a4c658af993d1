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
import type { Aggregate } from './aggregate.ts'
import type { Clauses, CompareOp, Cond, InOp, LikeOp, LikeText, NullOp, Subquery } from './conditions.ts'
import type { AggregateOf, CountAll, Direction, OrderTerm, SelectedRow, Simplify } from './operators.ts'
import type { AssocPath, JoinedBy, JoinSpec, NestedRow, Ref, ValueAt } from './paths.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import './methods.ts'
import { derive, EMPTY, QueryValue } from './value.ts'

export { isQuery } from './value.ts'

/** A row lock: PostgreSQL's `FOR UPDATE | FOR NO KEY UPDATE | FOR SHARE | FOR KEY SHARE`. */
export type LockMode = 'for update' | 'for no key update' | 'for share' | 'for key share'
/** `skipLocked`: rows another transaction locked are left out; `noWait`: such a row fails the query at once (SQLSTATE 55P03) instead of waiting. */
export interface LockOptions {
  readonly skipLocked?: boolean
  readonly noWait?: boolean
}

/** A `having` condition: an aggregate compared with a number. */
export interface HavingCond {
  readonly aggregate: Aggregate
  readonly op: CompareOp
  readonly value: number
}

/** What a query holds: the parts of its SELECT. */
export interface QueryParts<S extends AnySchema = AnySchema> {
  readonly kind: 'vela.query'
  readonly schema: S
  /** INNER / LEFT joins through associations, parents before children. */
  readonly joins: readonly JoinSpec[]
  /** The `where` conditions, AND-ed together. */
  readonly conds: readonly Cond[]
  /** `[reference, direction]`; a reference may also be an output name of the object form of `select`. */
  readonly order: readonly (readonly [string, Direction])[]
  /** `limit`; undefined = none. */
  readonly maxRows: number | undefined
  /** `offset`; undefined = none. */
  readonly skipRows: number | undefined
  /** Selected field references, list form (joined ones come back nested); undefined = every field of the schema. */
  readonly columns: readonly string[] | undefined
  /** Selected fields and aggregates by output name, object form (rows come back flat). */
  readonly columnsAs: Readonly<Record<string, string | Aggregate>> | undefined
  readonly groups: readonly string[]
  /** The `having` conditions, AND-ed together. */
  readonly havings: readonly HavingCond[]
  readonly isDistinct: boolean
  readonly rowLock: { readonly mode: LockMode; readonly skipLocked: boolean; readonly noWait: boolean } | undefined
  /** The rows are counted (`repo.count`): one `{ count }` row. */
  readonly countRows: boolean
  /** Whether a condition holds a subquery: columns are then qualified by their table. */
  readonly subqueries: boolean
}

/**
 * A SELECT over a schema, and what it joined. `R` is the row type the repository gives back; `J`
 * (type level only) the joined association paths, so joined fields can be named and typed. Every
 * method returns a new query; the free functions of the same names do the same.
 */
export interface Query<S extends AnySchema = AnySchema, R = RecordOf<S>, J = unknown> extends QueryParts<S> {
  /** Phantom: the row type the repository returns for this query. */
  readonly '~row'?: R
  /** Phantom: the joined paths. */
  readonly '~joins'?: J

  /**
   * Adds a condition (AND-ed with earlier ones): `field, op, value`, an equality map, or a
   * `cond` / `and` / `or` / `not` / `exists`. See `where`.
   *
   * @example
   * from(Product).where('price', '>', 100).where({ description: null })
   */
  where<K extends Ref<S, J>>(field: K, op: CompareOp, value: NonNullable<ValueAt<S, J, K>>): Query<S, R, J>
  where<K extends Ref<S, J>>(
    field: K,
    op: InOp,
    value: readonly NonNullable<ValueAt<S, J, K>>[] | Subquery<NonNullable<ValueAt<S, J, K>>>,
  ): Query<S, R, J>
  where<K extends Ref<S, J>>(field: K, op: LikeOp, pattern: string | LikeText): Query<S, R, J>
  where<K extends Ref<S, J>>(field: K, op: NullOp): Query<S, R, J>
  where(clauses: Clauses<S, J> | Cond<Ref<S, J>>): Query<S, R, J>
  /**
   * Appends sort terms: `'name'`, `['name', 'desc']`, or lists of them. See `orderBy`.
   *
   * @example
   * from(Product).orderBy(['price', 'desc'], 'name')
   */
  orderBy(
    ...terms: (OrderTerm<Ref<S, J> | (keyof R & string)> | readonly OrderTerm<Ref<S, J> | (keyof R & string)>[])[]
  ): Query<S, R, J>
  /**
   * At most `n` rows.
   *
   * @example
   * from(Product).orderBy('id').limit(20)
   */
  limit(n: number): Query<S, R, J>
  /**
   * Skips the first `n` rows.
   *
   * @example
   * from(Product).orderBy('id').limit(20).offset(40)   // the third page of 20
   */
  offset(n: number): Query<S, R, J>
  /**
   * Only these columns: a list of field references (joined ones nested in the rows), or
   * `{ outputName: field | aggregate }` (rows flat). See `select`.
   *
   * @example
   * from(WorkOrder).join('customer').select(['id', 'customer.name'])   // rows { id, customer: { name } }
   * from(LineItem).select({ n: count(), avg: avg('quantity') })
   */
  select<const K extends Ref<S, J>>(fields: readonly K[]): Query<S, Simplify<NestedRow<S, J, K>>, J>
  select<const M extends Record<string, Ref<S, J> | AggregateOf<S, J> | CountAll>>(
    columns: M,
  ): Query<S, SelectedRow<S, J, M>, J>
  /**
   * INNER JOIN through an association path; name joined fields by path afterwards. See `join`.
   *
   * @example
   * from(WorkOrder).join('customer').where('customer.tier', '=', 'pro')
   */
  join<const P extends AssocPath<S>>(path: P): Query<S, R, J & JoinedBy<S, J, P, false>>
  /**
   * LEFT JOIN through an association path: rows without a match are kept. See `leftJoin`.
   *
   * @example
   * from(Customer).leftJoin('work_orders').groupBy(['id']).select({ id: 'id', orders: count('work_orders.id') })
   */
  leftJoin<const P extends AssocPath<S>>(path: P): Query<S, R, J & JoinedBy<S, J, P, true>>
  /**
   * GROUP BY these fields. See `groupBy`.
   *
   * @example
   * from(WorkOrder).groupBy(['status']).select({ status: 'status', n: count() })
   */
  groupBy(fields: readonly Ref<S, J>[]): Query<S, R, J>
  /**
   * HAVING: keeps the groups whose aggregate compares so with `value`. See `having`.
   *
   * @example
   * from(WorkOrder).groupBy(['customer_id']).having(count(), '>', 1)
   */
  having(aggregate: AggregateOf<S, J> | CountAll, op: CompareOp, value: number): Query<S, R, J>
  /**
   * SELECT DISTINCT. See `distinct`.
   *
   * @example
   * from(WorkOrder).select(['status']).distinct()
   */
  distinct(): Query<S, R, J>
  /**
   * Locks the rows read until the transaction ends. See `lock`.
   *
   * @example
   * from(Job).where({ state: 'queued' }).lock('for update', { skipLocked: true }).limit(1)
   */
  lock(mode: LockMode, opts?: LockOptions): Query<S, R, J>
}

/**
 * A query over every row of `schema`; refine it with `.where`, `.join`, `.orderBy`, `.select`, ….
 *
 * @example
 * const rows = await repo.all(from(Product).where('price', '>', 100).orderBy('name').limit(20))
 */
export function from<S extends AnySchema>(schema: S): Query<S> {
  return new QueryValue({
    kind: 'vela.query',
    schema,
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
  }) as unknown as Query<S>
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
