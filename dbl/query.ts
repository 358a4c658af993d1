/**
 * The query builder: immutable values describing a SELECT over one schema. Every function returns
 * a new query. Field names are checked against the schema when the query is built (an unknown
 * field, operator or direction throws: that is a programming error, not user input); values are
 * only ever sent as parameters. Compiled to SQL by query_compile.ts.
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
import type { AnySchema, RecordOf } from './schema.ts'

export type CompareOp = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>='
export type LikeOp = 'like' | 'not like' | 'ilike' | 'not ilike'
export type InOp = 'in' | 'not in'
export type NullOp = 'is null' | 'is not null'
export type Op = CompareOp | LikeOp | InOp | NullOp

/** Literal text for a LIKE operator: every character matches itself. */
export type LikeText = { readonly contains: string } | { readonly startsWith: string } | { readonly endsWith: string }

/** `text` with LIKE's wildcards (`%`, `_`) and escape character (`\`) escaped, so it matches itself inside a pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&')
}

function likePattern(field: string, op: string, value: unknown): string {
  if (typeof value === 'string') {
    // An odd run of backslashes at the end: the last one escapes nothing.
    if (/\\*$/.exec(value)![0].length % 2 === 1) {
      throw new Error(`where ${field} ${op} ${JSON.stringify(value)}: the pattern ends with a lone escape character (\\); for text a user typed, use { contains: text } (or escapeLike(text))`)
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

const ops: ReadonlySet<string> = new Set<Op>(['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like', 'ilike', 'not ilike', 'in', 'not in', 'is null', 'is not null'])

/** A condition. `F` is the set of field names it uses, so `where` can check them against the schema's type. */
export type Cond<F extends string = string> =
  | { readonly '~cond': 'op'; readonly field: F; readonly op: Op; readonly value: unknown }
  | { readonly '~cond': 'and' | 'or'; readonly conds: readonly Cond<F>[] }
  | { readonly '~cond': 'not'; readonly cond: Cond<F> }

type Row<S extends AnySchema> = RecordOf<S>
type FieldOf<S extends AnySchema> = keyof Row<S> & string

/** Equality map: a value means `=`, `null` means IS NULL, a list means IN. */
export type Clauses<S extends AnySchema> = { readonly [K in FieldOf<S>]?: Row<S>[K] | readonly NonNullable<Row<S>[K]>[] | null }

export type Direction = 'asc' | 'desc'
export type OrderTerm<F extends string> = F | readonly [F, Direction]

export interface Query<S extends AnySchema = AnySchema, R = RecordOf<S>> {
  readonly kind: 'vela.query'
  readonly schema: S
  /** AND-ed together. */
  readonly where: readonly Cond[]
  readonly orderBy: readonly (readonly [string, Direction])[]
  readonly limit: number | undefined
  readonly offset: number | undefined
  /** Selected fields; undefined = every field of the schema. */
  readonly select: readonly string[] | undefined
  readonly count: boolean
  /** Phantom: the row type the repository returns for this query. */
  readonly '~row'?: R
}

export function from<S extends AnySchema>(schema: S): Query<S> {
  return { kind: 'vela.query', schema, where: [], orderBy: [], limit: undefined, offset: undefined, select: undefined, count: false }
}

export function isQuery(value: unknown): value is Query {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.query'
}

/** A condition for `where`, `and`, `or`, `not`: an equality map, or `field, op, value`. */
export function cond<const F extends string>(field: F, op: NullOp): Cond<F>
export function cond<const F extends string>(field: F, op: Exclude<Op, NullOp>, value: unknown): Cond<F>
export function cond<const M extends Record<string, unknown>>(clauses: M): Cond<keyof M & string>
export function cond(a: string | Record<string, unknown>, op?: Op, value?: unknown): Cond {
  if (typeof a !== 'string') return clausesCond(a)
  if (typeof op !== 'string' || !ops.has(op)) throw new Error(`unknown query operator ${JSON.stringify(op)}`)
  if (op === 'is null' || op === 'is not null') return { '~cond': 'op', field: a, op, value: undefined }
  if (value === undefined) throw new Error(`where ${a} ${op}: the value is undefined`)
  if ((op === 'in' || op === 'not in') && !Array.isArray(value)) throw new Error(`where ${a} ${op}: the value must be an array`)
  // Comparing with NULL is never true in SQL; say IS NULL explicitly.
  if (value === null) throw new Error(`where ${a} ${op} null: use 'is null' / 'is not null'`)
  if (op.endsWith('like')) return { '~cond': 'op', field: a, op, value: likePattern(a, op, value) }
  return { '~cond': 'op', field: a, op, value }
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

export function and<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'and', conds }
}
export function or<F extends string>(...conds: Cond<F>[]): Cond<F> {
  return { '~cond': 'or', conds }
}
export function not<F extends string>(c: Cond<F>): Cond<F> {
  return { '~cond': 'not', cond: c }
}

function checkField(schema: AnySchema, field: unknown): string {
  if (typeof field !== 'string' || !Object.hasOwn(schema.fieldsByName, field)) {
    throw new Error(`schema ${schema.table} has no field ${JSON.stringify(field)}`)
  }
  if (schema.fieldsByName[field]!.virtual) throw new Error(`schema ${schema.table}: field "${field}" is virtual (never stored), so a query cannot use it`)
  return field
}

function checkCond(schema: AnySchema, c: Cond): void {
  if (c['~cond'] === 'op') checkField(schema, c.field)
  else if (c['~cond'] === 'not') checkCond(schema, c.cond)
  else for (const x of c.conds) checkCond(schema, x)
}

/** Adds a condition (AND-ed with earlier ones): an equality map, `field, op, value`, or a `cond`/`and`/`or`/`not`. */
export function where<S extends AnySchema, R, K extends FieldOf<S>>(q: Query<S, R>, field: K, op: CompareOp, value: NonNullable<Row<S>[K]>): Query<S, R>
export function where<S extends AnySchema, R, K extends FieldOf<S>>(q: Query<S, R>, field: K, op: InOp, value: readonly NonNullable<Row<S>[K]>[]): Query<S, R>
export function where<S extends AnySchema, R, K extends FieldOf<S>>(q: Query<S, R>, field: K, op: LikeOp, pattern: string | LikeText): Query<S, R>
export function where<S extends AnySchema, R, K extends FieldOf<S>>(q: Query<S, R>, field: K, op: NullOp): Query<S, R>
export function where<S extends AnySchema, R>(q: Query<S, R>, clauses: Clauses<S> | Cond<FieldOf<S>>): Query<S, R>
export function where(q: Query, a: string | Record<string, unknown> | Cond, op?: Op, value?: unknown): Query {
  const c = typeof a === 'string' ? cond(a, op as Exclude<Op, NullOp>, value) : isCond(a) ? a : clausesCond(a)
  checkCond(q.schema, c)
  return { ...q, where: [...q.where, c] }
}

function isCond(value: object): value is Cond {
  return Object.hasOwn(value, '~cond')
}

/** Appends sort terms: `'name'`, `['name', 'desc']`, or a list of them. */
export function orderBy<S extends AnySchema, R>(q: Query<S, R>, ...terms: (OrderTerm<FieldOf<S>> | readonly OrderTerm<FieldOf<S>>[])[]): Query<S, R> {
  const flat: (readonly [string, Direction])[] = []
  const add = (t: unknown): void => {
    if (typeof t === 'string') return void flat.push([checkField(q.schema, t), 'asc'])
    if (!Array.isArray(t)) throw new Error(`orderBy: ${JSON.stringify(t)} is not a field or [field, direction]`)
    // [field, 'asc' | 'desc'] is one term; any other list is a list of terms (so a bad direction
    // ends up checked as a field name, and throws).
    if (t.length === 2 && typeof t[0] === 'string' && (t[1] === 'asc' || t[1] === 'desc')) {
      return void flat.push([checkField(q.schema, t[0]), t[1]])
    }
    for (const x of t) add(x)
  }
  for (const t of terms) add(t)
  return { ...q, orderBy: [...q.orderBy, ...flat] }
}

function count0(n: unknown, what: string): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`${what} must be a non-negative integer, got ${String(n)}`)
  return n
}

export function limit<S extends AnySchema, R>(q: Query<S, R>, n: number): Query<S, R> {
  return { ...q, limit: count0(n, 'limit') }
}

export function offset<S extends AnySchema, R>(q: Query<S, R>, n: number): Query<S, R> {
  return { ...q, offset: count0(n, 'offset') }
}

/** Only these fields; the row type narrows to them. */
export function select<S extends AnySchema, R, const K extends FieldOf<S>>(q: Query<S, R>, fields: readonly K[]): Query<S, Pick<Row<S>, K>> {
  if (fields.length === 0) throw new Error('select: give at least one field')
  for (const f of fields) checkField(q.schema, f)
  return { ...q, select: [...fields] } as Query<S, Pick<Row<S>, K>>
}

/** Rows become one `{ count }`: use with `repo.one`. Ordering is ignored; limit/offset bound what is counted. */
export function count<S extends AnySchema, R>(q: Query<S, R>): Query<S, { count: number }> {
  return { ...q, count: true } as Query<S, { count: number }>
}
