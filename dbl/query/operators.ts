/**
 * The query operators: `where`, `orderBy`, `limit`, `offset`, `select` and `count`, each as a free
 * function taking the query first and as a method of the query (`q.where(…)`, methods.ts). Field
 * names are checked against the schema when the query is built (an unknown field, operator or
 * direction throws: that is a programming error, not user input); values are only ever sent as
 * parameters.
 *
 *   from(Product).where('price', '>', 100).orderBy(['name', 'asc']).limit(20)
 *   from(Product).where({ name: 'Tea', description: null, id: [1, 2] })   // =, IS NULL, IN
 */
import { warnDeprecated } from '../../server/deprecation.ts'
import { countAggregate, isAggregate, refsOf, checkAggregate, type Aggregate } from './aggregate.ts'
import { clausesCond, cond, hasSubquery, isCond } from './conditions.ts'
import { resolveRef, type NestedRow, type Ref, type ValueAt } from './paths.ts'
import type {
  AggregateOf,
  Clauses,
  CompareOp,
  CountAll,
  Cond,
  Direction,
  InOp,
  LikeOp,
  LikeText,
  NullOp,
  Op,
  OrderTerm,
  Query,
  QueryParts,
  SelectedRow,
  Simplify,
  SqlOf,
  Subquery,
  WindowOf,
} from './types.ts'
import { derive, deriveExtras, isQuery } from './value.ts'
import { fragmentRefs, isSql, type Sql } from './fragment.ts'
import { isWindow, windowRefs, type Window } from './window.ts'
import type { AnySchema, Field } from '../schema.ts'

/** Throws for a field reference the query cannot name. */
export function checkRef(q: QueryParts, ref: unknown): string {
  resolveRef(q.schema, q.joins, ref)
  return ref as string
}

/** Throws for a `sql` fragment naming a field the query cannot name. */
function checkFragment(q: QueryParts, f: Sql): Sql {
  for (const r of fragmentRefs(f)) checkRef(q, r)
  return f
}

function checkCond(q: QueryParts, c: Cond): void {
  if (c['~cond'] === 'op' || c['~cond'] === 'between') checkRef(q, c.field)
  else if (c['~cond'] === 'sql') checkFragment(q, c)
  else if (c['~cond'] === 'not') checkCond(q, c.cond)
  else if (c['~cond'] === 'exists') {
    if (c.correlate) checkRef(q, c.correlate[0])
  } else for (const x of c.conds) checkCond(q, x)
}

/**
 * Adds a condition (AND-ed with earlier ones): an equality map, `field, op, value`, or a
 * `cond`/`and`/`or`/`not`/`exists`. Fields may be joined paths (`'customer.tier'`); the value of
 * `in` may be a one-column subquery.
 *
 * @example
 * from(WorkOrder).join('customer').where('customer.tier', '=', 'pro')
 * from(WorkOrder).where('customer_id', 'in', from(Customer).where({ tier: 'pro' }).select(['id']))
 * where(from(Product), 'price', '>', 100)   // the free function: the same as from(Product).where('price', '>', 100)
 */
export function where<S extends AnySchema, R, J, K extends Ref<S, J>>(
  q: Query<S, R, J>,
  field: K,
  op: CompareOp,
  value: NonNullable<ValueAt<S, J, K>>,
): Query<S, R, J>
export function where<S extends AnySchema, R, J, K extends Ref<S, J>>(
  q: Query<S, R, J>,
  field: K,
  op: InOp,
  value: readonly NonNullable<ValueAt<S, J, K>>[] | Subquery<NonNullable<ValueAt<S, J, K>>>,
): Query<S, R, J>
export function where<S extends AnySchema, R, J, K extends Ref<S, J>>(
  q: Query<S, R, J>,
  field: K,
  op: LikeOp,
  pattern: string | LikeText,
): Query<S, R, J>
export function where<S extends AnySchema, R, J, K extends Ref<S, J>>(
  q: Query<S, R, J>,
  field: K,
  op: NullOp,
): Query<S, R, J>
export function where<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  clauses: Clauses<S, J> | Cond<Ref<S, J>>,
): Query<S, R, J>
export function where(q: Query, a: string | Record<string, unknown> | Cond, op?: Op, value?: unknown): Query {
  const c = typeof a === 'string' ? cond(a, op as Exclude<Op, NullOp>, value) : isCond(a) ? a : clausesCond(a)
  checkCond(q, c)
  const n = derive(q)
  n.conds = [...q.conds, c]
  if (!q.subqueries && hasSubquery(c)) n.subqueries = true
  return n as unknown as Query
}

/**
 * Appends sort terms: `'name'`, `['name', 'desc']`, or a list of them. A term may be a joined path,
 * or an output name of `select`'s object form (an aggregate's, say).
 *
 * @example
 * from(Product).orderBy(['price', 'desc'], 'name')
 */
export function orderBy<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  ...terms: (
    | OrderTerm<Ref<S, J> | (keyof R & string) | SqlOf<S, J>>
    | readonly OrderTerm<Ref<S, J> | (keyof R & string) | SqlOf<S, J>>[]
  )[]
): Query<S, R, J> {
  return orderByTerms(q, terms) as unknown as Query<S, R, J>
}

/** `orderBy` with its terms as one list: the method passes its rest parameter on without spreading it. */
export function orderByTerms(q: QueryParts, terms: readonly unknown[]): QueryParts {
  const flat: (readonly [string | Sql, Direction])[] = []
  for (const t of terms) addOrderTerm(q, flat, t)
  const n = derive(q)
  n.order = q.order.length ? [...q.order, ...flat] : flat
  return n
}

// Module functions rather than closures made per call: queries are built on every request.

/** A sort term checked: a fragment, an output name of `select`'s object form, or a field reference. */
function checkOrderTerm(q: QueryParts, f: unknown): string | Sql {
  if (isSql(f)) return checkFragment(q, f)
  return typeof f === 'string' && q.columnsAs && Object.hasOwn(q.columnsAs, f) ? f : checkRef(q, f)
}

/** Adds `t`, one term or a list of them, to `flat`. */
function addOrderTerm(q: QueryParts, flat: (readonly [string | Sql, Direction])[], t: unknown): void {
  if (typeof t === 'string' || isSql(t)) return void flat.push([checkOrderTerm(q, t), 'asc'])
  if (!Array.isArray(t)) throw new Error(`orderBy: ${JSON.stringify(t)} is not a field or [field, direction]`)
  // [field, 'asc' | 'desc'] is one term; any other list is a list of terms (so a bad direction
  // ends up checked as a field name, and throws).
  if (t.length === 2 && (typeof t[0] === 'string' || isSql(t[0])) && (t[1] === 'asc' || t[1] === 'desc')) {
    return void flat.push([checkOrderTerm(q, t[0]), t[1]])
  }
  for (const x of t) addOrderTerm(q, flat, x)
}

function count0(n: unknown, what: string): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`${what} must be a non-negative integer, got ${String(n)}`)
  return n
}

/**
 * At most `n` rows.
 *
 * @example
 * await repo.all(from(Product).orderBy('id').limit(20))
 */
export function limit<S extends AnySchema, R, J>(q: Query<S, R, J>, n: number): Query<S, R, J> {
  const next = derive(q)
  next.maxRows = count0(n, 'limit')
  return next as unknown as Query<S, R, J>
}

/**
 * Skips the first `n` rows.
 *
 * @example
 * await repo.all(from(Product).orderBy('id').limit(20).offset(40))   // the third page of 20
 */
export function offset<S extends AnySchema, R, J>(q: Query<S, R, J>, n: number): Query<S, R, J> {
  const next = derive(q)
  next.skipRows = count0(n, 'offset')
  return next as unknown as Query<S, R, J>
}

/** Throws for an aggregate the query cannot compute (unknown field, `sum` of text). */
export function checkAggregateIn(q: QueryParts, a: Aggregate): void {
  const refs = refsOf(a)
  const fields: Field[] = []
  for (const r of refs) fields.push(resolveRef(q.schema, q.joins, r).field)
  checkAggregate(a, fields, refs)
}

/** Throws for a window function the query cannot compute (unknown field, `sum` of text). */
function checkWindowIn(q: QueryParts, w: Window): void {
  if (typeof w.fn !== 'string') checkAggregateIn(q, w.fn)
  for (const r of windowRefs(w)) checkRef(q, r)
}

/** A copy of `q` whose select list holds `sql` fragments or not (the rare case kept in `extras`). */
function withFragments(q: QueryParts, fragments: boolean) {
  return fragments === (q.extras?.selectsFragment ?? false)
    ? derive(q)
    : deriveExtras(q, { selectsFragment: fragments })
}

/**
 * Only these columns. The list form takes field references (joined ones come back nested:
 * `['id', 'customer.name']` gives `{ id, customer: { name } }`); the object form names each output
 * and may hold aggregates (`{ n: count(), total: sum('quantity') }`) and window functions
 * (`{ nth: rowNumber({ partitionBy: ['customer_id'], orderBy: ['id'] }) }`), rows flat.
 *
 * @example
 * await repo.all(from(WorkOrder).join('customer').select(['id', 'title', 'customer.name']))
 * await repo.one(from(LineItem).select({ n: count(), avg: avg('quantity'), max: max('quantity') }))
 */
export function select<S extends AnySchema, R, J, const K extends Ref<S, J>>(
  q: Query<S, R, J>,
  fields: readonly K[],
): Query<S, Simplify<NestedRow<S, J, K>>, J>
export function select<
  S extends AnySchema,
  R,
  J,
  const M extends Record<string, Ref<S, J> | AggregateOf<S, J> | CountAll | WindowOf<S, J> | SqlOf<S, J>>,
>(q: Query<S, R, J>, columns: M): Query<S, SelectedRow<S, J, M>, J>
export function select(q: Query, spec: readonly string[] | Record<string, unknown>): Query {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new Error('select: give at least one field')
    for (const f of spec) checkRef(q, f)
    const n = withFragments(q, false)
    n.columns = [...spec]
    n.columnsAs = undefined
    return n as unknown as Query
  }
  if (typeof spec !== 'object' || spec === null)
    throw new Error('select: give a list of fields or { name: field | aggregate }')
  const names = Object.keys(spec)
  if (names.length === 0) throw new Error('select: give at least one field')
  let fragments = false
  for (const name of names) {
    // Output names become SQL identifiers and row keys: plain words only.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`select: output name ${JSON.stringify(name)} must be letters, digits and _`)
    const v = (spec as Record<string, unknown>)[name]
    if (isAggregate(v)) checkAggregateIn(q, v)
    else if (isWindow(v)) checkWindowIn(q, v)
    else if (isSql(v)) {
      checkFragment(q, v)
      fragments = true
    } else checkRef(q, v)
  }
  const n = withFragments(q, fragments)
  n.columns = undefined
  n.columnsAs = { ...(spec as Record<string, string | Aggregate | Window | Sql>) }
  return n as unknown as Query
}

/**
 * The COUNT aggregate, for `select`'s object form and `having`: `count()` counts rows,
 * `count(field)` the rows where the field is not null, `{ distinct: true }` its distinct values.
 * For the number of rows a query gives, use `repo.count(q)`.
 *
 * @example
 * from(WorkOrder).groupBy(['status']).select({ status: 'status', n: count() })
 * from(LineItem).select({ orders: count('work_order_id', { distinct: true }) })
 */
export function count(): CountAll
export function count<const F extends string>(field: F, opts?: { readonly distinct?: boolean }): Aggregate<'count', F>
/**
 * @deprecated `count(q)` (a query whose rows become one `{ count }`) is `repo.count(q)` now, which
 * gives the number.
 */
export function count<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, { count: number }, J>
export function count(a?: unknown, opts?: { readonly distinct?: boolean }): Query | Aggregate {
  if (isQuery(a)) {
    warnDeprecated(
      'VELA_DEP_DBL_COUNT_QUERY',
      'count(query) is deprecated: use repo.count(query), which gives the number of rows (count() stays the COUNT aggregate)',
    )
    const n = derive(a)
    n.countRows = true
    return n as unknown as Query
  }
  if (a !== undefined && typeof a !== 'string') throw new Error('count: give a field, or nothing')
  return countAggregate(a, opts)
}
