/**
 * The query builder: immutable values describing a SELECT over one schema. Every function returns
 * a new query. Field names are checked against the schema when the query is built (an unknown
 * field, operator or direction throws: that is a programming error, not user input); values are
 * only ever sent as parameters. Compiled to SQL by query-compile.ts.
 *
 *   const q = orderBy(where(from(Product), 'price', '>', 100), ['name', 'asc'])
 *   where(q, { name: 'Tea', description: null, id: [1, 2] })   // =, IS NULL, IN
 *   where(q, or(cond('price', '<', 10), cond({ name: 'Gift' })))
 *   where(q, 'name', 'ilike', { contains: req.query.q })   // text from a user: %, _ and \ match themselves
 *
 * LIKE operators take a pattern (`'%tea%'`: `%` any text, `_` one character, `\` escapes the
 * next one) or literal text to look for (`{ contains | startsWith | endsWith: text }`, escaped
 * with `escapeLike`). **Choice:** user input goes in the second form; a pattern is the program's,
 * so a malformed one (ending in a lone `\`) throws when the query is built, like an unknown
 * operator. PostgreSQL would refuse it only when a row matches up to the backslash (SQLSTATE
 * 22025), a failure that depends on the data; here it fails the first time the code runs.
 */
import {
  countAggregate,
  isAggregate,
  refsOf,
  checkAggregate,
  type Aggregate,
  type AggregateArg,
} from './query-aggregate.ts'
import {
  resolveRef,
  type JoinSpec,
  type Joins,
  type NestedRow,
  type NumericRef,
  type Ref,
  type ValueAt,
} from './query-paths.ts'
import type { AnySchema, RecordOf } from './schema.ts'

/** Comparison operators of `where` and `having`. */
export type CompareOp = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
export type LikeOp = 'like' | 'not like' | 'ilike' | 'not ilike'
export type InOp = 'in' | 'not in'
export type NullOp = 'is null' | 'is not null'
/** Every operator `where` / `cond` take. */
export type Op = CompareOp | LikeOp | InOp | NullOp

/** Literal text for a LIKE operator: every character matches itself. */
export type LikeText = { readonly contains: string } | { readonly startsWith: string } | { readonly endsWith: string }

/**
 * `text` with LIKE's wildcards (`%`, `_`) and escape character (`\`) escaped, so it matches itself
 * inside a pattern you build around it.
 *
 * @example
 * const prefix = '50%'
 * where(from(Product), 'name', 'like', `${escapeLike(prefix)}%`) // names starting with "50%", not "500 g"
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&')
}

function likePattern(field: string, op: string, value: unknown): string {
  if (typeof value === 'string') {
    // An odd run of backslashes at the end: the last one escapes nothing.
    if (/\\*$/.exec(value)![0].length % 2 === 1) {
      throw new Error(
        `where ${field} ${op} ${JSON.stringify(value)}: the pattern ends with a lone escape character (\\); for text a user typed, use { contains: text } (or escapeLike(text))`,
      )
    }
    return value
  }
  const keys = typeof value === 'object' && value !== null ? Object.keys(value) : []
  const text = keys.length === 1 ? (value as Record<string, unknown>)[keys[0]!] : undefined
  if (typeof text === 'string') {
    if (keys[0] === 'contains') return `%${escapeLike(text)}%`
    if (keys[0] === 'startsWith') return `${escapeLike(text)}%`
    if (keys[0] === 'endsWith') return `%${escapeLike(text)}`
  }
  throw new Error(`where ${field} ${op}: give a pattern string or one of { contains | startsWith | endsWith: string }`)
}

const ops: ReadonlySet<string> = new Set<Op>([
  '=',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'like',
  'not like',
  'ilike',
  'not ilike',
  'in',
  'not in',
  'is null',
  'is not null',
])

/**
 * A condition `where`, `and`, `or` and `not` take, as `cond` and `exists` build it. `F` is the
 * set of field references it uses, so `where` can check them against the query's type. `exists` holds a subquery (`correlate`: [outer field, inner field] made equal); the
 * value of `in` / `not in` may be a one-column subquery.
 */
export type Cond<F extends string = string> =
  | { readonly '~cond': 'op'; readonly field: F; readonly op: Op; readonly value: unknown }
  | { readonly '~cond': 'and' | 'or'; readonly conds: readonly Cond<F>[] }
  | { readonly '~cond': 'not'; readonly cond: Cond<F> }
  | {
      readonly '~cond': 'exists'
      readonly query: Query<AnySchema, unknown, Joins>
      readonly correlate: readonly [F, string] | undefined
    }

/** Equality map: a value means `=`, `null` means IS NULL, a list means IN. Keys are fields or joined paths (`'customer.tier'`). */
export type Clauses<S extends AnySchema, J = unknown> = {
  readonly [K in Ref<S, J>]?: ValueAt<S, J, K> | readonly NonNullable<ValueAt<S, J, K>>[] | null
}

/** Sort direction of an `orderBy` term. */
export type Direction = 'asc' | 'desc'
export type OrderTerm<F extends string> = F | readonly [F, Direction]

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

/**
 * A SELECT over a schema, and what it joined. `R` is the row type the repository gives back; `J`
 * (type level only) the joined association paths, so joined fields can be named and typed.
 */
export interface Query<S extends AnySchema = AnySchema, R = RecordOf<S>, J = unknown> {
  readonly kind: 'vela.query'
  readonly schema: S
  /** INNER / LEFT joins through associations, parents before children. */
  readonly joins: readonly JoinSpec[]
  /** AND-ed together. */
  readonly where: readonly Cond[]
  /** `[reference, direction]`; a reference may also be an alias of the object form of `select`. */
  readonly orderBy: readonly (readonly [string, Direction])[]
  readonly limit: number | undefined
  readonly offset: number | undefined
  /** Selected field references, list form (joined ones come back nested); undefined = every field of the schema. */
  readonly select: readonly string[] | undefined
  /** Selected fields and aggregates by output name, object form (rows come back flat). */
  readonly selectAs: Readonly<Record<string, string | Aggregate>> | undefined
  readonly groupBy: readonly string[]
  /** AND-ed together. */
  readonly having: readonly HavingCond[]
  readonly distinct: boolean
  readonly lock: { readonly mode: LockMode; readonly skipLocked: boolean; readonly noWait: boolean } | undefined
  readonly count: boolean
  /** Phantom: the row type the repository returns for this query. */
  readonly '~row'?: R
  /** Phantom: the joined paths. */
  readonly '~joins'?: J
}

/**
 * A query over every row of `schema`; refine it with `where`, `join`, `orderBy`, `select`, ….
 *
 * @example
 * const rows = await repo.all(orderBy(from(Product), 'name'))
 */
export function from<S extends AnySchema>(schema: S): Query<S> {
  return {
    kind: 'vela.query',
    schema,
    joins: [],
    where: [],
    orderBy: [],
    limit: undefined,
    offset: undefined,
    select: undefined,
    selectAs: undefined,
    groupBy: [],
    having: [],
    distinct: false,
    lock: undefined,
    count: false,
  }
}

/**
 * Whether `value` is a query built by `from`.
 *
 * @example
 * isQuery(from(Product))   // true
 */
export function isQuery(value: unknown): value is Query<AnySchema, unknown, Joins> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.query'
}

/** A one-column subquery whose values are `V`s: the value `in` / `not in` may take. */
export type Subquery<V> = Query<any, { readonly [column: string]: V | null }, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A condition for `where`, `and`, `or`, `not`: an equality map, or `field, op, value`.
 *
 * @example
 * cond('price', '<', 10)                     // price < 10
 * cond('description', 'is null')             // description IS NULL
 * cond({ name: 'Gift', price: [5, 10] })     // name = 'Gift' AND price IN (5, 10)
 * where(from(Product), or(cond('price', '<', 10), cond({ name: 'Gift' })))
 */
export function cond<const F extends string>(field: F, op: NullOp): Cond<F>
export function cond<const F extends string>(field: F, op: Exclude<Op, NullOp>, value: unknown): Cond<F>
export function cond<const M extends Record<string, unknown>>(clauses: M): Cond<keyof M & string>
export function cond(a: string | Record<string, unknown>, op?: Op, value?: unknown): Cond {
  if (typeof a !== 'string') return clausesCond(a)
  if (typeof op !== 'string' || !ops.has(op)) throw new Error(`unknown query operator ${JSON.stringify(op)}`)
  if (op === 'is null' || op === 'is not null') return { '~cond': 'op', field: a, op, value: undefined }
  if (value === undefined) throw new Error(`where ${a} ${op}: the value is undefined`)
  if (op === 'in' || op === 'not in') {
    if (isQuery(value)) return { '~cond': 'op', field: a, op, value: checkSubquery(value, `where ${a} ${op}`) }
    if (!Array.isArray(value)) throw new Error(`where ${a} ${op}: the value must be an array or a one-column subquery`)
  }
  // Comparing with NULL is never true in SQL; say IS NULL explicitly.
  if (value === null) throw new Error(`where ${a} ${op} null: use 'is null' / 'is not null'`)
  if (op.endsWith('like')) return { '~cond': 'op', field: a, op, value: likePattern(a, op, value) }
  return { '~cond': 'op', field: a, op, value }
}

function checkSubquery(q: Query<AnySchema, unknown, Joins>, what: string): Query<AnySchema, unknown, Joins> {
  const columns = q.select?.length ?? (q.selectAs ? Object.keys(q.selectAs).length : 0)
  if (columns !== 1 || q.count)
    throw new Error(`${what}: the subquery must select exactly one column (select(q, ['id']))`)
  if (q.lock) throw new Error(`${what}: a subquery cannot lock rows`)
  return q
}

function clausesCond(clauses: Record<string, unknown>): Cond {
  const conds: Cond[] = []
  for (const field of Object.keys(clauses)) {
    const value = clauses[field]
    if (value === undefined) throw new Error(`where { ${field}: undefined }: a value is missing (use null for IS NULL)`)
    conds.push(
      value === null
        ? { '~cond': 'op', field, op: 'is null', value: undefined }
        : Array.isArray(value)
          ? { '~cond': 'op', field, op: 'in', value }
          : { '~cond': 'op', field, op: '=', value },
    )
  }
  return conds.length === 1 ? conds[0]! : { '~cond': 'and', conds }
}

/**
 * All of the conditions (an empty `and()` is true).
 *
 * @example
 * where(from(Product), or(cond('price', '<', 10), and(cond('price', '>', 100), cond({ description: null }))))
 */
export function and<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'and', conds }
}
/**
 * Any of the conditions (an empty `or()` is false).
 *
 * @example
 * where(from(Product), or(cond('price', '<', 10), cond({ name: 'Gift' })))
 */
export function or<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'or', conds }
}
/**
 * The condition negated: `not(cond(…))`, `not(exists(…))`.
 *
 * @example
 * where(from(Customer), not(exists(from(WorkOrder), { correlate: ['id', 'customer_id'] })))   // customers without orders
 */
export function not<F extends string>(c: Cond<F>): Cond<F> {
  return { '~cond': 'not', cond: c }
}

/**
 * True for each row for which `subquery` finds a row. `correlate: [outer, inner]` ties the two
 * (`outer field = inner field`), so the subquery looks at the outer row's related rows; negate with `not`.
 *
 * @example
 * // customers with an open work order
 * where(from(Customer), exists(where(from(WorkOrder), 'status', '=', 'open'), { correlate: ['id', 'customer_id'] }))
 */
export function exists<Sub extends AnySchema, SJ, const O extends string = never>(
  subquery: Query<Sub, unknown, SJ>,
  opts: { readonly correlate?: readonly [O, Ref<Sub, SJ>] } = {},
): Cond<O> {
  if (!isQuery(subquery)) throw new Error('exists: give a query (from(…))')
  if (subquery.lock) throw new Error('exists: a subquery cannot lock rows')
  const c = opts.correlate
  if (c !== undefined) {
    if (!Array.isArray(c) || c.length !== 2) throw new Error('exists: correlate is [outer field, inner field]')
    resolveRef(subquery.schema, subquery.joins, c[1])
  }
  return { '~cond': 'exists', query: subquery, correlate: c as readonly [O, string] | undefined }
}

/** Throws for a field reference the query cannot name. */
export function checkRef(q: Query<AnySchema, unknown, unknown>, ref: unknown): string {
  resolveRef(q.schema, q.joins, ref)
  return ref as string
}

function checkCond(q: Query<AnySchema, unknown, unknown>, c: Cond): void {
  if (c['~cond'] === 'op') checkRef(q, c.field)
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
 * where(join(from(WorkOrder), 'customer'), 'customer.tier', '=', 'pro')
 * where(from(WorkOrder), 'customer_id', 'in', select(where(from(Customer), { tier: 'pro' }), ['id']))
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
  return { ...q, where: [...q.where, c] }
}

function isCond(value: object): value is Cond {
  return Object.hasOwn(value, '~cond')
}

/**
 * Appends sort terms: `'name'`, `['name', 'desc']`, or a list of them. A term may be a joined path,
 * or an output name of `select`'s object form (an aggregate's, say).
 *
 * @example
 * orderBy(from(Product), ['price', 'desc'], 'name')
 */
export function orderBy<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  ...terms: (OrderTerm<Ref<S, J> | (keyof R & string)> | readonly OrderTerm<Ref<S, J> | (keyof R & string)>[])[]
): Query<S, R, J> {
  const flat: (readonly [string, Direction])[] = []
  const check = (f: unknown): string =>
    typeof f === 'string' && q.selectAs && Object.hasOwn(q.selectAs, f) ? f : checkRef(q, f)
  const add = (t: unknown): void => {
    if (typeof t === 'string') return void flat.push([check(t), 'asc'])
    if (!Array.isArray(t)) throw new Error(`orderBy: ${JSON.stringify(t)} is not a field or [field, direction]`)
    // [field, 'asc' | 'desc'] is one term; any other list is a list of terms (so a bad direction
    // ends up checked as a field name, and throws).
    if (t.length === 2 && typeof t[0] === 'string' && (t[1] === 'asc' || t[1] === 'desc')) {
      return void flat.push([check(t[0]), t[1]])
    }
    for (const x of t) add(x)
  }
  for (const t of terms) add(t)
  return { ...q, orderBy: [...q.orderBy, ...flat] }
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
 * await repo.all(limit(orderBy(from(Product), 'id'), 20))
 */
export function limit<S extends AnySchema, R, J>(q: Query<S, R, J>, n: number): Query<S, R, J> {
  return { ...q, limit: count0(n, 'limit') }
}

/**
 * Skips the first `n` rows.
 *
 * @example
 * await repo.all(offset(limit(orderBy(from(Product), 'id'), 20), 40))   // the third page of 20
 */
export function offset<S extends AnySchema, R, J>(q: Query<S, R, J>, n: number): Query<S, R, J> {
  return { ...q, offset: count0(n, 'offset') }
}

/** Which aggregates a query may compute: `sum` / `avg` and arithmetic over numeric fields, `count`, `min`, `max` over any. */
export type AggregateOf<S, J> =
  | Aggregate<'count', Ref<S, J>>
  | Aggregate<'sum' | 'avg', NumericRef<S, J>>
  | Aggregate<'min' | 'max', Ref<S, J>>

/** The value an aggregate gives in a row. */
export type AggregateValue<S, J, A> =
  A extends Aggregate<'count', infer _F>
    ? number
    : A extends Aggregate<'sum' | 'avg', infer _F>
      ? number | null
      : A extends Aggregate<'min' | 'max', infer F>
        ? (string extends F ? number : F extends Ref<S, J> ? NonNullable<ValueAt<S, J, F>> : number) | null
        : never

type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** The row of `select`'s object form. */
export type SelectedRow<S, J, M> = Simplify<{
  readonly [K in keyof M]: M[K] extends Aggregate
    ? AggregateValue<S, J, M[K]>
    : M[K] extends string
      ? ValueAt<S, J, M[K]>
      : never
}>

/** A `count()` that has no field, so it matches any query. */
type CountAll = Aggregate<'count', never>

/** Throws for an aggregate the query cannot compute (unknown field, `sum` of text). */
export function checkAggregateIn(q: Query<AnySchema, unknown, unknown>, a: Aggregate): void {
  const refs = refsOf(a)
  checkAggregate(
    a,
    refs.map((r) => resolveRef(q.schema, q.joins, r).field),
    refs,
  )
}

/**
 * Only these columns. The list form takes field references (joined ones come back nested:
 * `['id', 'customer.name']` gives `{ id, customer: { name } }`); the object form names each output
 * and may hold aggregates (`{ n: count(), total: sum('quantity') }`), rows flat.
 *
 * @example
 * await repo.all(select(join(from(WorkOrder), 'customer'), ['id', 'title', 'customer.name']))
 * await repo.one(select(from(LineItem), { n: count(), avg: avg('quantity'), max: max('quantity') }))
 */
export function select<S extends AnySchema, R, J, const K extends Ref<S, J>>(
  q: Query<S, R, J>,
  fields: readonly K[],
): Query<S, Simplify<NestedRow<S, J, K>>, J>
export function select<
  S extends AnySchema,
  R,
  J,
  const M extends Record<string, Ref<S, J> | AggregateOf<S, J> | CountAll>,
>(q: Query<S, R, J>, columns: M): Query<S, SelectedRow<S, J, M>, J>
export function select(q: Query, spec: readonly string[] | Record<string, unknown>): Query {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new Error('select: give at least one field')
    for (const f of spec) checkRef(q, f)
    return { ...q, select: [...spec], selectAs: undefined }
  }
  if (typeof spec !== 'object' || spec === null)
    throw new Error('select: give a list of fields or { name: field | aggregate }')
  const names = Object.keys(spec)
  if (names.length === 0) throw new Error('select: give at least one field')
  for (const name of names) {
    // Output names become SQL identifiers and row keys: plain words only.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`select: output name ${JSON.stringify(name)} must be letters, digits and _`)
    const v = (spec as Record<string, unknown>)[name]
    if (isAggregate(v)) checkAggregateIn(q, v)
    else checkRef(q, v)
  }
  return { ...q, select: undefined, selectAs: { ...(spec as Record<string, string | Aggregate>) } }
}

/**
 * `count(q)`: the query's rows become one `{ count }` (use with `repo.one`; ordering is ignored,
 * limit/offset bound what is counted). `count()` / `count(field, { distinct })`: the COUNT
 * aggregate, for `select`'s object form and `having`.
 *
 * @example
 * await repo.one(count(where(from(Product), 'price', '>', 100)))          // { count: 12 }
 * select(groupBy(from(WorkOrder), ['status']), { status: 'status', n: count() })
 * select(from(LineItem), { orders: count('work_order_id', { distinct: true }) })
 */
export function count<S extends AnySchema, R, J>(q: Query<S, R, J>): Query<S, { count: number }, J>
export function count(): CountAll
export function count<const F extends string>(field: F, opts?: { readonly distinct?: boolean }): Aggregate<'count', F>
export function count(a?: unknown, opts?: { readonly distinct?: boolean }): Query | Aggregate {
  if (isQuery(a)) return { ...(a as Query), count: true } as Query
  if (a !== undefined && typeof a !== 'string') throw new Error('count: give a query, a field, or nothing')
  return countAggregate(a, opts)
}

export type { AggregateArg }
