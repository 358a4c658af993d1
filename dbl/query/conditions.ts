/**
 * Conditions of `where`: `cond`, `and`, `or`, `not`, `exists`, `between`, and the equality map. A condition is
 * a plain value that names its fields; the query that takes it checks them (operators.ts).
 *
 *   from(Product).where(or(cond('price', '<', 10), cond({ name: 'Gift' })))
 *   from(Product).where('name', 'ilike', { contains: req.query.q })   // text from a user: %, _ and \ match themselves
 *
 * LIKE operators take a pattern (`'%tea%'`: `%` any text, `_` one character, `\` escapes the
 * next one) or literal text to look for (`{ contains | startsWith | endsWith: text }`, escaped
 * with `escapeLike`). **Choice:** user input goes in the second form; a pattern is the program's,
 * so a malformed one (ending in a lone `\`) throws when the query is built, like an unknown
 * operator. PostgreSQL would refuse it only when a row matches up to the backslash (SQLSTATE
 * 22025), a failure that depends on the data; here it fails the first time the code runs.
 */
import type { Cond, NullOp, Op, Query } from './types.ts'
import { isQuery } from './value.ts'
import { resolveRef, type Joins, type Ref } from './paths.ts'
import type { AnySchema } from '../schema.ts'

/**
 * `text` with LIKE's wildcards (`%`, `_`) and escape character (`\`) escaped, so it matches itself
 * inside a pattern you build around it.
 *
 * @example
 * const prefix = '50%'
 * from(Product).where('name', 'like', `${escapeLike(prefix)}%`) // names starting with "50%", not "500 g"
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
 * A condition for `where`, `and`, `or`, `not`: an equality map, or `field, op, value`.
 *
 * @example
 * cond('price', '<', 10)                     // price < 10
 * cond('description', 'is null')             // description IS NULL
 * cond({ name: 'Gift', price: [5, 10] })     // name = 'Gift' AND price IN (5, 10)
 * from(Product).where(or(cond('price', '<', 10), cond({ name: 'Gift' })))
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
  const columns = q.columns?.length ?? (q.columnsAs ? Object.keys(q.columnsAs).length : 0)
  if (columns !== 1 || q.countRows)
    throw new Error(`${what}: the subquery must select exactly one column (q.select(['id']))`)
  if (q.rowLock) throw new Error(`${what}: a subquery cannot lock rows`)
  return q
}

export function clausesCond(clauses: Record<string, unknown>): Cond {
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
 * from(Product).where(or(cond('price', '<', 10), and(cond('price', '>', 100), cond({ description: null }))))
 */
export function and<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'and', conds }
}
/**
 * Any of the conditions (an empty `or()` is false).
 *
 * @example
 * from(Product).where(or(cond('price', '<', 10), cond({ name: 'Gift' })))
 */
export function or<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'or', conds }
}
/**
 * The condition negated: `not(cond(…))`, `not(exists(…))`.
 *
 * @example
 * from(Customer).where(not(exists(from(WorkOrder), { correlate: ['id', 'customer_id'] })))   // customers without orders
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
 * from(Customer).where(exists(from(WorkOrder).where('status', '=', 'open'), { correlate: ['id', 'customer_id'] }))
 */
export function exists<Sub extends AnySchema, SJ, const O extends string = never>(
  subquery: Query<Sub, unknown, SJ>,
  opts: { readonly correlate?: readonly [O, Ref<Sub, SJ>] } = {},
): Cond<O> {
  if (!isQuery(subquery)) throw new Error('exists: give a query (from(…))')
  if (subquery.rowLock) throw new Error('exists: a subquery cannot lock rows')
  const c = opts.correlate
  if (c !== undefined) {
    if (!Array.isArray(c) || c.length !== 2) throw new Error('exists: correlate is [outer field, inner field]')
    resolveRef(subquery.schema, subquery.joins, c[1])
  }
  return { '~cond': 'exists', query: subquery, correlate: c as readonly [O, string] | undefined }
}

function range<const F extends string>(what: string, field: F, low: unknown, high: unknown, negated: boolean): Cond<F> {
  if (typeof field !== 'string') throw new Error(`${what}: give a field name`)
  if (low === undefined || high === undefined || low === null || high === null)
    throw new Error(`${what}(${field}): give both bounds (not null or undefined)`)
  return { '~cond': 'between', field, low, high, negated }
}

/**
 * `field BETWEEN low AND high`: the bounds included. Values are parameters, encoded as the field's.
 *
 * @example
 * from(Product).where(between('price', 10, 20))   // 10 <= price <= 20
 */
export function between<const F extends string, V>(field: F, low: V, high: V): Cond<F> {
  return range('between', field, low, high, false)
}

/**
 * `field NOT BETWEEN low AND high`: below `low` or above `high` (a null field matches neither).
 *
 * @example
 * from(Product).where(notBetween('price', 10, 20))   // price < 10 or price > 20
 */
export function notBetween<const F extends string, V>(field: F, low: V, high: V): Cond<F> {
  return range('notBetween', field, low, high, true)
}

/** Whether `value` is a condition (`cond`, `and`, …) rather than an equality map. */
export function isCond(value: object): value is Cond {
  return Object.hasOwn(value, '~cond')
}

/** Whether `c` holds a subquery (`exists`, or `in` a query) anywhere. */
export function hasSubquery(c: Cond): boolean {
  switch (c['~cond']) {
    case 'exists':
      return true
    case 'op':
      return isQuery(c.value)
    case 'not':
      return hasSubquery(c.cond)
    case 'between':
    case 'sql':
      return false
    default:
      return c.conds.some(hasSubquery)
  }
}
