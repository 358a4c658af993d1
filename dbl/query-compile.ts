/**
 * Queries (query.ts) to SQL and parameters. A walk over the query yields its shape key and its
 * values in a fixed order; knex only runs, with marker values, the first time a shape is seen.
 */
import type { Knex } from 'knex'
import { aggregateKey, type Aggregate } from './query-aggregate.ts'
import { resolveRef } from './query-paths.ts'
import { compiled, dumpValue, kx, marker, paramsFor, sqlOf, type Compiled } from './sql.ts'
import { isQuery, type Cond, type Query } from './query.ts'
import type { AnySchema, Field } from './schema.ts'

export interface Statement {
  readonly sql: string
  readonly params: unknown[]
  /** Turns a driver row into the row the query's type promises (nests joined fields, converts aggregates); undefined when rows are already so. */
  readonly shape?: ((row: Record<string, unknown>) => Record<string, unknown>) | undefined
}

type Builder = Knex.QueryBuilder
type AnyQuery = Query<AnySchema, unknown, unknown>

/** The field a condition's reference names, for encoding its value. */
function fieldOf(q: AnyQuery, ref: string): Field {
  return (ref.indexOf('.') < 0 && q.schema.fieldsByName[ref]) || resolveRef(q.schema, q.joins, ref).field
}

/** Appends the shape of `c` to the key and its values to `values`. */
function walk(q: AnyQuery, c: Cond, values: unknown[]): string {
  switch (c['~cond']) {
    case 'op':
      if (c.op === 'is null' || c.op === 'is not null') return `${c.field} ${c.op}`
      if (isQuery(c.value)) return `${c.field} ${c.op} (${queryKey(c.value, values)})`
      {
        const field = fieldOf(q, c.field)
        values.push(
          Array.isArray(c.value) && c.op.endsWith('in')
            ? c.value.map((v) => dumpValue(field, v))
            : dumpValue(field, c.value),
        )
      }
      return `${c.field} ${c.op}`
    case 'and':
    case 'or':
      return `${c['~cond']}(${c.conds.map((x) => walk(q, x, values)).join(',')})`
    case 'not':
      return `not(${walk(q, c.cond, values)})`
    case 'exists':
      return `exists(${c.correlate ? c.correlate.join('=') : ''};${queryKey(c.query, values)})`
  }
}

/**
 * Where a query's columns live in the statement: the alias of its table and of each joined path.
 * A subquery's aliases avoid every alias of the queries around it, so a correlation names the
 * outer row unambiguously; columns are qualified when the statement has more than one table.
 */
interface Scope {
  readonly q: AnyQuery
  readonly root: string
  readonly qualify: boolean
  readonly aliases: ReadonlyMap<string, string>
  readonly used: Set<string>
}

function scopeOf(q: AnyQuery, outer: Scope | undefined): Scope {
  const used = new Set(outer?.used)
  const alloc = (name: string): string => {
    let a = name
    for (let i = 2; used.has(a); i++) a = `${name}_${i}`
    used.add(a)
    return a
  }
  const root = alloc(q.schema.table)
  const aliases = new Map<string, string>()
  for (const j of q.joins) {
    aliases.set(j.path, alloc(j.path.replaceAll('.', '__')))
    if (j.through) aliases.set(`${j.path}~through`, alloc(`${j.path.replaceAll('.', '__')}__through`))
  }
  const qualify = outer !== undefined || q.joins.length > 0 || hasSubquery(q.where)
  return { q, root, qualify, aliases, used }
}

function hasSubquery(conds: readonly Cond[]): boolean {
  return conds.some((c) =>
    c['~cond'] === 'exists' || (c['~cond'] === 'op' && isQuery(c.value))
      ? true
      : c['~cond'] === 'not'
        ? hasSubquery([c.cond])
        : c['~cond'] === 'op'
          ? false
          : hasSubquery(c.conds),
  )
}

/** The SQL column of a field reference in `scope` (`"customer"."name"`). */
function col(s: Scope, ref: string, qualify = s.qualify): string {
  const dot = ref.lastIndexOf('.')
  if (dot < 0) return qualify ? `${s.root}.${ref}` : ref
  return `${s.aliases.get(ref.slice(0, dot))!}.${ref.slice(dot + 1)}`
}

function tableAs(table: string, alias: string): string | Record<string, string> {
  return alias === table ? table : { [alias]: table }
}

function applyJoins(b: Builder, s: Scope): void {
  for (const j of s.q.joins) {
    const dot = j.path.lastIndexOf('.')
    const parent = dot < 0 ? s.root : s.aliases.get(j.path.slice(0, dot))!
    const alias = s.aliases.get(j.path)!
    const { assoc } = j
    const add = (table: string, as: string, left: string, right: string) =>
      void (j.kind === 'left'
        ? b.leftJoin(tableAs(table, as), left, right)
        : b.innerJoin(tableAs(table, as), left, right))
    const through = j.through
    if (through) {
      const t = s.aliases.get(`${j.path}~through`)!
      add(through.table, t, `${t}.${through.ownerKey}`, `${parent}.${through.ownerColumn}`)
      add(assoc.related.table, alias, `${alias}.${through.relatedColumn}`, `${t}.${through.relatedKey}`)
    } else if (assoc.kind === 'belongsTo')
      add(assoc.related.table, alias, `${alias}.${assoc.related.primaryKey}`, `${parent}.${assoc.foreignKey}`)
    else add(assoc.related.table, alias, `${alias}.${assoc.foreignKey}`, `${parent}.${assoc.owner.primaryKey}`)
  }
}

function valueCount(q: AnyQuery, c: Cond): number {
  const scratch: unknown[] = []
  walk(q, c, scratch)
  return scratch.length
}

/**
 * Replays the same walk on a knex builder, with markers numbered in the order `walk` pushed values.
 * knex runs group callbacks only when it compiles, after later clauses (limit, offset) took their
 * markers, so each group reserves its range of numbers now and numbers its inside from a copy.
 */
function apply(b: Builder, s: Scope, c: Cond, useOr: boolean, next: { i: number }): void {
  const w = useOr ? b.orWhere.bind(b) : b.where.bind(b)
  const raw = (sql: string, bindings: readonly unknown[]) =>
    void (useOr ? b.orWhereRaw(sql, bindings as never) : b.whereRaw(sql, bindings as never))
  switch (c['~cond']) {
    case 'op': {
      const f = col(s, c.field)
      if (c.op === 'is null') return void (useOr ? b.orWhereNull(f) : b.whereNull(f))
      if (c.op === 'is not null') return void (useOr ? b.orWhereNotNull(f) : b.whereNotNull(f))
      if (isQuery(c.value)) {
        const sub = build(c.value, scopeOf(c.value, s), next, 'in')
        if (c.op === 'in') return void (useOr ? b.orWhereIn(f, sub) : b.whereIn(f, sub))
        return void (useOr ? b.orWhereNotIn(f, sub) : b.whereNotIn(f, sub))
      }
      const m = marker(next.i++)
      // One array parameter instead of one per element: the statement shape doesn't depend on the list length.
      if (c.op === 'in') return raw('?? = any(?)', [f, m])
      if (c.op === 'not in') return raw('not (?? = any(?))', [f, m])
      if (c.op.startsWith('not '))
        return void (useOr ? b.orWhereNot(f, c.op.slice(4), m) : b.whereNot(f, c.op.slice(4), m))
      return void w(f, c.op === '!=' ? '<>' : c.op, m)
    }
    case 'and':
    case 'or': {
      if (c.conds.length === 0) return raw(c['~cond'] === 'and' ? 'true' : 'false', [])
      const inner = c['~cond'] === 'or'
      const local = { i: next.i }
      next.i += valueCount(s.q, c)
      return void w((sub: Builder) => {
        for (const x of c.conds) apply(sub, s, x, inner, local)
      })
    }
    case 'not': {
      const local = { i: next.i }
      next.i += valueCount(s.q, c)
      const group = (sub: Builder) => apply(sub, s, c.cond, false, local)
      return void (useOr ? b.orWhereNot(group) : b.whereNot(group))
    }
    case 'exists': {
      const inner = scopeOf(c.query, s)
      const sub = build(c.query, inner, next, 'exists')
      if (c.correlate) sub.whereRaw('?? = ??', [col(inner, c.correlate[1]), col(s, c.correlate[0], true)])
      return void (useOr ? b.orWhereExists(sub) : b.whereExists(sub))
    }
  }
}

function aggregateSql(s: Scope, a: Aggregate): { sql: string; bindings: string[] } {
  if (a.arg === undefined) return { sql: 'count(*)', bindings: [] }
  const d = a.distinct ? 'distinct ' : ''
  if (typeof a.arg === 'string') return { sql: `${a.fn}(${d}??)`, bindings: [col(s, a.arg)] }
  // The operator comes from a fixed set (checked when the aggregate was made), never from a value.
  return { sql: `${a.fn}(${d}?? ${a.arg[1]} ??)`, bindings: [col(s, a.arg[0]), col(s, a.arg[2])] }
}

/** What a statement selects, as knex takes it. */
function columns(s: Scope): (string | Record<string, string> | Knex.Raw)[] {
  const q = s.q
  if (q.selectAs) {
    return Object.entries(q.selectAs).map(([name, v]) => {
      if (typeof v === 'string') return name === v && !s.qualify ? v : { [name]: col(s, v) }
      const a = aggregateSql(s, v)
      return kx.raw(`${a.sql} as ??`, [...a.bindings, name])
    })
  }
  if (q.select) return q.select.map((ref) => (ref.indexOf('.') < 0 ? col(s, ref) : { [ref]: col(s, ref) }))
  const cols = sqlOf(q.schema).columns
  return s.qualify ? cols.map((c) => `${s.root}.${c}`) : [...cols]
}

const lockCalls = {
  'for update': 'forUpdate',
  'for no key update': 'forNoKeyUpdate',
  'for share': 'forShare',
  'for key share': 'forKeyShare',
} as const

function checkLock(q: AnyQuery): void {
  if (!q.lock) return
  const aggregates = q.selectAs !== undefined && Object.values(q.selectAs).some((v) => typeof v !== 'string')
  if (q.count || q.distinct || q.groupBy.length || q.having.length || aggregates) {
    throw new Error(
      `lock ${q.lock.mode}: rows of a count, distinct, grouped or aggregate query cannot be locked (lock the rows themselves)`,
    )
  }
}

/** The SELECT for `q` in scope `s`, taking markers from `next` in `queryKey`'s order. `as`: a subquery for `in` or `exists`. */
function build(q: AnyQuery, s: Scope, next: { i: number }, as: 'top' | 'in' | 'exists'): Builder {
  checkLock(q)
  const b = kx(tableAs(q.schema.table, s.root))
  // A count of a distinct or grouped query counts its rows, so those keep their columns.
  const keepColumns = q.distinct || q.groupBy.length > 0 || q.selectAs !== undefined
  b.select(as === 'exists' || (q.count && !keepColumns) ? kx.raw('1') : columns(s))
  if (q.distinct && as !== 'exists') b.distinct()
  applyJoins(b, s)
  for (const c of q.where) apply(b, s, c, false, next)
  if (q.groupBy.length) b.groupBy(q.groupBy.map((f) => col(s, f)))
  for (const h of q.having) {
    const a = aggregateSql(s, h.aggregate)
    b.havingRaw(`${a.sql} ${h.op === '!=' ? '<>' : h.op} ?`, [...a.bindings, marker(next.i++)])
  }
  if (!q.count && as !== 'exists') {
    for (const [f, d] of q.orderBy) b.orderBy(q.selectAs && Object.hasOwn(q.selectAs, f) ? f : col(s, f), d)
  }
  if (q.limit !== undefined) b.limit(marker(next.i++))
  if (q.offset !== undefined) b.offset(marker(next.i++))
  if (q.lock) {
    b[lockCalls[q.lock.mode]]()
    if (q.lock.skipLocked) b.skipLocked()
    if (q.lock.noWait) b.noWait()
  }
  return b
}

/** The statement shape of `q` (everything but the values), pushing its values in the order `build` numbers them. */
function queryKey(q: AnyQuery, values: unknown[]): string {
  let key = q.schema.table
  if (q.joins.length) key += ` join ${q.joins.map((j) => `${j.path}:${j.kind}`).join(',')}`
  if (q.selectAs)
    key += ` as ${Object.entries(q.selectAs)
      .map(([n, v]) => `${n}=${typeof v === 'string' ? v : aggregateKey(v)}`)
      .join(',')}`
  else key += ` ${q.select ? q.select.join(',') : '*'}`
  key += ` where `
  for (const c of q.where) key += walk(q, c, values) + ';'
  if (q.groupBy.length) key += ` group ${q.groupBy.join(',')}`
  if (q.having.length) {
    key += ' having '
    for (const h of q.having) (key += `${aggregateKey(h.aggregate)}${h.op};`), values.push(h.value)
  }
  if (q.count) key += ' count'
  else if (q.orderBy.length) key += ` order ${q.orderBy.map(([f, d]) => f + ' ' + d).join(',')}`
  if (q.distinct) key += ' distinct'
  if (q.limit !== undefined) (key += ' limit'), values.push(q.limit)
  if (q.offset !== undefined) (key += ' offset'), values.push(q.offset)
  if (q.lock) key += ` ${q.lock.mode}${q.lock.skipLocked ? ' skip locked' : ''}${q.lock.noWait ? ' nowait' : ''}`
  return key
}

type Shape = NonNullable<Statement['shape']>
const shapes = new WeakMap<Compiled, Shape | null>()

/** The row shaper of `q`, or null: list-form paths nested, `sum` / `avg` (numeric, given as text) made numbers. */
function shapeOf(q: AnyQuery): Shape | null {
  if (q.count) return null
  if (q.selectAs) {
    const numeric = Object.entries(q.selectAs)
      .filter(
        ([, v]) =>
          typeof v !== 'string' &&
          (v.fn === 'sum' || v.fn === 'avg' || ((v.fn === 'min' || v.fn === 'max') && Array.isArray(v.arg))),
      )
      .map(([n]) => n)
    if (numeric.length === 0) return null
    return (row) => {
      for (const n of numeric) if (typeof row[n] === 'string') row[n] = Number(row[n])
      return row
    }
  }
  const nested = (q.select ?? []).filter((r) => r.indexOf('.') >= 0).map((r) => [r, r.split('.')] as const)
  if (nested.length === 0) return null
  const plain = q.select!.filter((r) => r.indexOf('.') < 0)
  return (row) => {
    const out: Record<string, unknown> = {}
    for (const k of plain) out[k] = row[k]
    for (const [k, path] of nested) {
      let o = out
      for (let i = 0; i < path.length - 1; i++) o = (o[path[i]!] ??= {}) as Record<string, unknown>
      o[path[path.length - 1]!] = row[k]
    }
    return out
  }
}

/** SQL and parameters of a SELECT (with `shape` for the rows when they need one). */
export function compileSelect(q: AnyQuery): Statement {
  const values: unknown[] = []
  const key = `select ${queryKey(q, values)}`
  const c = compiled(key, () => {
    const b = build(q, scopeOf(q, undefined), { i: 0 }, 'top')
    return q.count ? kx.count({ count: '*' }).from(b.as('counted')) : b
  })
  let shape = shapes.get(c)
  if (shape === undefined) shapes.set(c, (shape = shapeOf(q)))
  return { sql: c.sql, params: paramsFor(c, values), shape: shape ?? undefined }
}

function checkBulk(q: AnyQuery, what: string): void {
  if (
    q.limit !== undefined ||
    q.offset !== undefined ||
    q.orderBy.length ||
    q.select ||
    q.selectAs ||
    q.count ||
    q.joins.length ||
    q.groupBy.length ||
    q.having.length ||
    q.distinct ||
    q.lock
  ) {
    throw new Error(
      `${what}: only where clauses apply (no join, limit, offset, orderBy, select, groupBy, having, distinct, lock or count)`,
    )
  }
}

function whereKey(q: AnyQuery, values: unknown[]): string {
  let key = ''
  for (const c of q.where) key += walk(q, c, values) + ';'
  return key
}

function applyWheres(b: Builder, q: AnyQuery, next: { i: number }): Builder {
  const s = scopeOf(q, undefined)
  for (const c of q.where) apply(b, s, c, false, next)
  return b
}

/** UPDATE … SET fields WHERE …; `set` keys must be fields (checked by the caller). */
export function compileUpdateAll(q: AnyQuery, set: Record<string, unknown>): Statement {
  checkBulk(q, 'updateAll')
  const fields = Object.keys(set).sort()
  if (fields.length === 0) throw new Error('updateAll: nothing to set')
  const values: unknown[] = fields.map((f) => dumpValue(q.schema.fieldsByName[f]!, set[f]))
  const key = `update ${q.schema.table} set ${fields.join(',')} where ${whereKey(q, values)}`
  const c = compiled(key, () => {
    const next = { i: 0 }
    const data: Record<string, number> = {}
    for (const f of fields) data[f] = marker(next.i++)
    return applyWheres(kx(q.schema.table).update(data), q, next)
  })
  return { sql: c.sql, params: paramsFor(c, values) }
}

/** DELETE … WHERE …. */
export function compileDeleteAll(q: AnyQuery): Statement {
  checkBulk(q, 'deleteAll')
  const values: unknown[] = []
  const key = `delete ${q.schema.table} where ${whereKey(q, values)}`
  const c = compiled(key, () => applyWheres(kx(q.schema.table).del(), q, { i: 0 }))
  return { sql: c.sql, params: paramsFor(c, values) }
}
