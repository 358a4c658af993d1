/**
 * Window functions for `select`'s object form: `rowNumber`, `rank`, `denseRank`, and any aggregate
 * `over` a window (`over(sum('quantity'), { partitionBy: ['work_order_id'] })`). A window names its
 * fields before it meets a query, as an aggregate does; the query that selects it checks them (by
 * the types, and by a throw when the query is built). A window holds no values, only field
 * references, so it is part of the statement's shape and never of its parameters.
 *
 *   from(WorkOrder).select({ id: 'id', nth: rowNumber({ partitionBy: ['customer_id'], orderBy: ['id'] }) })
 */
import { aggregateKey, isAggregate, refsOf, type Aggregate } from './aggregate.ts'

// Spelled out rather than imported from types.ts, which imports this module's types.
type Direction = 'asc' | 'desc'
type OrderTerm<F extends string> = F | readonly [F, Direction]

/** The ranking functions: each row's position in its partition. */
export type RankFn = 'row_number' | 'rank' | 'dense_rank'

/** `PARTITION BY` fields and `ORDER BY` terms (`'field'` or `['field', 'desc']`) of a window. */
export interface WindowSpec<P extends string = string, O extends string = string> {
  readonly partitionBy?: readonly P[]
  readonly orderBy?: readonly OrderTerm<O>[]
}

/**
 * A window function over field references `F`: a ranking (a number per row) or an aggregate `A`
 * computed over each row's window (`sum(…) over (…)`), its value as the aggregate's.
 */
export interface Window<A extends RankFn | Aggregate = RankFn | Aggregate, F extends string = string> {
  readonly kind: 'vela.window'
  readonly fn: A
  readonly partitionBy: readonly string[]
  readonly orderBy: readonly (readonly [string, Direction])[]
  /** Phantom: the field references used, checked against the query that selects the window. */
  readonly '~refs'?: F
}

function make<A extends RankFn | Aggregate, F extends string>(fn: A, spec: WindowSpec | undefined): Window<A, F> {
  const what = typeof fn === 'string' ? fn : `over(${fn.fn})`
  if (spec !== undefined && (typeof spec !== 'object' || spec === null))
    throw new Error(`${what}: the window is { partitionBy?, orderBy? }`)
  const partitionBy = spec?.partitionBy ?? []
  if (!Array.isArray(partitionBy) || partitionBy.some((f) => typeof f !== 'string'))
    throw new Error(`${what}: partitionBy is a list of fields`)
  const orderBy: (readonly [string, Direction])[] = []
  for (const t of spec?.orderBy ?? []) {
    if (typeof t === 'string') orderBy.push([t, 'asc'])
    else if (Array.isArray(t) && t.length === 2 && typeof t[0] === 'string' && (t[1] === 'asc' || t[1] === 'desc'))
      orderBy.push([t[0], t[1]])
    else throw new Error(`${what}: orderBy term ${JSON.stringify(t)} is not a field or [field, 'asc' | 'desc']`)
  }
  return { kind: 'vela.window', fn, partitionBy: [...partitionBy], orderBy }
}

/**
 * `row_number() over (…)`: each row's position in its partition (1, 2, 3, …; ties numbered apart,
 * in no set order unless `orderBy` decides).
 *
 * @example
 * // each customer's work orders, numbered from the newest
 * from(WorkOrder).select({ id: 'id', nth: rowNumber({ partitionBy: ['customer_id'], orderBy: [['id', 'desc']] }) })
 */
export function rowNumber<const P extends string = never, const O extends string = never>(
  spec?: WindowSpec<P, O>,
): Window<'row_number', P | O> {
  return make('row_number', spec)
}

/**
 * `rank() over (…)`: each row's rank by `orderBy` in its partition, ties sharing a rank and leaving
 * gaps (1, 1, 3).
 *
 * @example
 * from(LineItem).select({ id: 'id', place: rank({ partitionBy: ['work_order_id'], orderBy: [['quantity', 'desc']] }) })
 */
export function rank<const P extends string = never, const O extends string = never>(
  spec?: WindowSpec<P, O>,
): Window<'rank', P | O> {
  return make('rank', spec)
}

/**
 * `dense_rank() over (…)`: as `rank`, without gaps after ties (1, 1, 2).
 *
 * @example
 * from(LineItem).select({ id: 'id', place: denseRank({ orderBy: [['quantity', 'desc']] }) })
 */
export function denseRank<const P extends string = never, const O extends string = never>(
  spec?: WindowSpec<P, O>,
): Window<'dense_rank', P | O> {
  return make('dense_rank', spec)
}

/**
 * An aggregate over each row's window instead of over a group: `sum(…) over (partition by … order
 * by …)`. With `orderBy`, a running total; without, the partition's total on every row.
 *
 * @example
 * // each line with its work order's total quantity, and a running total by id
 * from(LineItem).select({
 *   id: 'id',
 *   orderTotal: over(sum('quantity'), { partitionBy: ['work_order_id'] }),
 *   running: over(sum('quantity'), { orderBy: ['id'] }),
 * })
 */
export function over<A extends Aggregate, const P extends string = never, const O extends string = never>(
  aggregate: A,
  spec?: WindowSpec<P, O>,
): Window<A, P | O | (A extends Aggregate<infer _Fn, infer F> ? F : never)> {
  if (!isAggregate(aggregate)) throw new Error('over: give an aggregate (sum(…), count(), …)')
  return make(aggregate, spec)
}

/**
 * Whether `value` is a window function (`rowNumber(…)`, `over(…)`, …).
 *
 * @example
 * isWindow(rank({ orderBy: ['id'] }))   // true
 */
export function isWindow(value: unknown): value is Window {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.window'
}

/** The field references a window uses: its aggregate's, then its partition's and order's. */
export function windowRefs(w: Window): string[] {
  const refs = typeof w.fn === 'string' ? [] : refsOf(w.fn)
  return [...refs, ...w.partitionBy, ...w.orderBy.map((t) => t[0])]
}

/** The window's part of a statement's shape key. */
export function windowKey(w: Window): string {
  const fn = typeof w.fn === 'string' ? `${w.fn}()` : aggregateKey(w.fn)
  return `${fn} over(${w.partitionBy.join(',')};${w.orderBy.map((t) => t.join(' ')).join(',')})`
}
