/**
 * Aggregates for `select`'s object form and `having`: `count()`, `count(field, { distinct })`,
 * `sum`, `avg`, `min`, `max`. An aggregate names its field before it meets a query, so its field is
 * checked against the query's schema and joins (and, for `sum` / `avg`, that it is a number) where
 * the query takes it: by the types, and by a throw when the query is built.
 *
 * Arithmetic over fields is a three-element list, `[field, op, field]` with op `+ - * /`:
 * `sum(['line_items.quantity', '*', 'line_items.unit_price'])` is `sum(quantity * unit_price)`.
 *
 * Values come back as numbers: PostgreSQL answers `sum` of a bigint and every `avg` as `numeric`,
 * which the drivers give as text; the repository converts them. An aggregate over no rows is null
 * (`count` is 0).
 */
import type { Field } from '../schema.ts'

/** The aggregate functions. */
export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max'
/** Operators of an aggregate's arithmetic over two fields (`[field, op, field]`). */
export type ArithOp = '+' | '-' | '*' | '/'
/** What an aggregate is over: a field, or two fields combined by an arithmetic operator. */
export type AggregateArg<F extends string = string> = F | readonly [F, ArithOp, F]

/**
 * An aggregate over field reference(s) `F` (`'*'` for `count()`). Values: `count` a number,
 * `sum` / `avg` a number or null, `min` / `max` the field's type or null.
 */
export interface Aggregate<Fn extends AggregateFn = AggregateFn, F extends string = string> {
  readonly kind: 'vela.aggregate'
  readonly fn: Fn
  /** undefined: `count(*)`. */
  readonly arg: AggregateArg | undefined
  readonly distinct: boolean
  /** Phantom: the field references used, checked against the query that takes the aggregate. */
  readonly '~refs'?: F
}

const arithOps: ReadonlySet<string> = new Set<ArithOp>(['+', '-', '*', '/'])

function make<Fn extends AggregateFn, F extends string>(fn: Fn, arg: unknown, distinct = false): Aggregate<Fn, F> {
  if (arg !== undefined && typeof arg !== 'string') {
    if (
      !Array.isArray(arg) ||
      arg.length !== 3 ||
      typeof arg[0] !== 'string' ||
      typeof arg[2] !== 'string' ||
      !arithOps.has(arg[1])
    ) {
      throw new Error(`${fn}: give a field or [field, '+' | '-' | '*' | '/', field], got ${JSON.stringify(arg)}`)
    }
  }
  return { kind: 'vela.aggregate', fn, arg: arg as AggregateArg | undefined, distinct }
}

/**
 * Whether `value` is an aggregate (`count()`, `sum(…)`, …).
 *
 * @example
 * isAggregate(sum('quantity'))   // true
 */
export function isAggregate(value: unknown): value is Aggregate {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.aggregate'
}

/** The COUNT aggregate, as `count()` / `count(field, { distinct })` make it (query/operators.ts). */
export function countAggregate<const F extends string>(
  field?: F,
  opts: { readonly distinct?: boolean } = {},
): Aggregate<'count', F> {
  return make('count', field, opts.distinct === true)
}

/**
 * The sum of a numeric field (or of `[field, op, field]`) over the rows, or per group; null over no rows.
 *
 * @example
 * from(WorkOrder).join('line_items').groupBy(['id']).select({ id: 'id', total: sum(['line_items.quantity', '*', 'line_items.unit_price']) })
 */
export function sum<const F extends string>(arg: AggregateArg<F>): Aggregate<'sum', F> {
  return make('sum', arg)
}

/**
 * The average of a numeric field (or of `[field, op, field]`), as a number; null over no rows.
 *
 * @example
 * await repo.one(from(LineItem).select({ avg: avg('quantity') }))   // { avg: 2.5 }
 */
export function avg<const F extends string>(arg: AggregateArg<F>): Aggregate<'avg', F> {
  return make('avg', arg)
}

/**
 * The smallest value of a field (any comparable type: numbers, text, dates); null over no rows.
 *
 * @example
 * await repo.one(from(WorkOrder).select({ first: min('inserted_at') }))
 */
export function min<const F extends string>(arg: AggregateArg<F>): Aggregate<'min', F> {
  return make('min', arg)
}

/**
 * The largest value of a field (any comparable type: numbers, text, dates); null over no rows.
 *
 * @example
 * await repo.one(from(LineItem).select({ max: max('quantity') }))
 */
export function max<const F extends string>(arg: AggregateArg<F>): Aggregate<'max', F> {
  return make('max', arg)
}

/** The field references an aggregate uses. */
export function refsOf(a: Aggregate): string[] {
  return a.arg === undefined ? [] : typeof a.arg === 'string' ? [a.arg] : [a.arg[0], a.arg[2]]
}

const numeric: ReadonlySet<unknown> = new Set(['id', 'integer', 'float'])

/** Throws when an aggregate cannot apply to its fields: `sum` / `avg` and arithmetic take numbers only. */
export function checkAggregate(a: Aggregate, fields: readonly Field[], ref: readonly string[]): void {
  const needsNumber = a.fn === 'sum' || a.fn === 'avg' || Array.isArray(a.arg)
  if (!needsNumber) return
  fields.forEach((f, i) => {
    if (!numeric.has(f.type))
      throw new Error(`${a.fn}(${ref[i]}): ${ref[i]} is a ${JSON.stringify(f.type)} field, not a number`)
  })
}

/** The aggregate's part of a statement's shape key. */
export function aggregateKey(a: Aggregate): string {
  const arg = a.arg === undefined ? '*' : typeof a.arg === 'string' ? a.arg : a.arg.join(' ')
  return `${a.fn}(${a.distinct ? 'distinct ' : ''}${arg})`
}
