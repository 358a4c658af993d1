/**
 * Queries to SQL and parameters, in one walk. The walk appends the statement's shape to a key and
 * pushes each value at the point its `$n` stands in the text; when it also writes the text
 * (`emit`), it writes each part as it meets it. The same code thus makes the key, the text and the
 * parameters, and they cannot disagree on the order of the values.
 *
 * Writing the text costs more than the key, so a statement's text (and its row shaper) is cached
 * by key: a query whose shape was seen before is walked without writing text; a new shape is
 * walked once more with `emit`. The text is PostgreSQL's, written as knex (which builds every other
 * statement) writes it: identifiers double-quoted, AND-ed groups in parentheses, `= any($n)` for a list.
 */
import { aggregateKey, type Aggregate } from './aggregate.ts'
import { cteQuery } from './cte.ts'
import { isFieldRef, isSql, type Sql } from './fragment.ts'
import { isWindow, windowKey, type Window } from './window.ts'
import type { Cond, QueryParts, SetOp } from './types.ts'
import { resolveRef } from './paths.ts'
import { isQuery } from './value.ts'
import { dumpValue, sqlOf } from '../sql.ts'
import { scopeConds } from '../scopes.ts'
import type { AnySchema, Field } from '../schema.ts'
import { columnOf } from '../column-names.ts'

export interface Statement {
  readonly sql: string
  readonly params: unknown[]
  /** Turns a driver row into the row the query's type promises (nests joined fields, converts aggregates); undefined when rows are already so. */
  readonly shape?: ((row: Record<string, unknown>) => Record<string, unknown>) | undefined
}

/** A compiled SELECT with its cache key, for tests and tools that look at how a query compiles. */
export interface KeyedStatement extends Statement {
  /** The statement's shape: everything but the values. Equal keys mean equal SQL text. */
  readonly key: string
}

type Q = QueryParts<AnySchema>

/** One walk's output: the key always, the parameters always, the text when `emit`. */
interface Walk {
  key: string
  readonly params: unknown[]
  readonly emit: boolean
}

/** `"name"`, with any `"` inside doubled. */
export function quote(id: string): string {
  return id.indexOf('"') < 0 ? `"${id}"` : `"${id.replaceAll('"', '""')}"`
}

/**
 * Where a query's columns live in the statement: the alias of its table and of each joined path.
 * A subquery's aliases avoid every alias of the queries around it, so a correlation names the
 * outer row unambiguously; columns are qualified when the statement has more than one table.
 */
interface Scope {
  readonly q: Q
  /** The table's alias, unquoted and quoted. */
  readonly root: string
  readonly rootQ: string
  readonly qualify: boolean
  /** Joined path → quoted alias (`path~through` for a manyToMany's join table). */
  readonly aliases: ReadonlyMap<string, string> | undefined
  /** Every alias taken by this scope and the ones around it. */
  readonly used: ReadonlySet<string>
}

const NO_ALIASES: ReadonlySet<string> = new Set()
const EMPTY_OPS: readonly SetOp[] = []

function scopeOf(q: Q, outer: Scope | undefined): Scope {
  // The common case (one table, no subquery): nothing to allocate.
  if (!outer && q.joins.length === 0) {
    const root = q.schema.table
    return { q, root, rootQ: quote(root), qualify: q.subqueries, aliases: undefined, used: NO_ALIASES }
  }
  const used = new Set(outer ? outer.used : undefined)
  if (outer) used.add(outer.root)
  const alloc = (name: string): string => {
    let a = name
    for (let i = 2; used.has(a); i++) a = `${name}_${i}`
    used.add(a)
    return a
  }
  const root = alloc(q.schema.table)
  const aliases = new Map<string, string>()
  for (const j of q.joins) {
    aliases.set(j.path, quote(alloc(j.path.replaceAll('.', '__'))))
    if (j.through) aliases.set(`${j.path}~through`, quote(alloc(`${j.path.replaceAll('.', '__')}__through`)))
  }
  const qualify = outer !== undefined || q.joins.length > 0 || q.subqueries
  return { q, root, rootQ: quote(root), qualify, aliases, used }
}

/**
 * The SQL column of a field reference in `scope` (`"customer"."name"`): the column the field is
 * stored in (column-names.ts). Only a statement's first build writes text, so this costs no
 * statement served from the cache.
 */
function col(s: Scope, ref: string, qualify = s.qualify): string {
  const dot = ref.lastIndexOf('.')
  if (dot < 0) {
    const c = quote(columnOf(s.q.schema, ref))
    return qualify ? `${s.rootQ}.${c}` : c
  }
  const path = ref.slice(0, dot)
  const joined = s.q.joins.find((j) => j.path === path)!.assoc.related
  return `${s.aliases!.get(path)!}.${quote(columnOf(joined, ref.slice(dot + 1)))}`
}

/** `"table"`, or `"table" as "alias"` when they differ. */
function tableAs(table: string, aliasQ: string): string {
  const t = quote(table)
  return aliasQ === t ? t : `${t} as ${aliasQ}`
}

function joinsSql(s: Scope): string {
  let sql = ''
  for (const j of s.q.joins) {
    const dot = j.path.lastIndexOf('.')
    const parent = dot < 0 ? s.rootQ : s.aliases!.get(j.path.slice(0, dot))!
    const alias = s.aliases!.get(j.path)!
    const { assoc } = j
    const kind = j.kind === 'left' ? ' left join ' : ' inner join '
    const through = j.through
    if (through) {
      const t = s.aliases!.get(`${j.path}~through`)!
      const ownerColumn = columnOf(assoc.owner, through.ownerColumn)
      sql += `${kind}${tableAs(through.table, t)} on ${t}.${quote(through.ownerKey)} = ${parent}.${quote(ownerColumn)}`
      sql += `${kind}${tableAs(assoc.related.table, alias)} on ${alias}.${quote(columnOf(assoc.related, through.relatedColumn))} = ${t}.${quote(through.relatedKey)}`
    } else {
      // belongsTo: the related row's key = our foreign key; otherwise their foreign key = our key.
      // One pair per column of a composite key, each field named by its column.
      const belongs = assoc.kind === 'belongsTo'
      const on = assoc.foreignKeys.map((fk, i) => {
        const key = assoc.keys[i]!
        const [theirs, ours] = belongs
          ? [columnOf(assoc.related, key), columnOf(assoc.owner, fk)]
          : [columnOf(assoc.related, fk), columnOf(assoc.owner, key)]
        return `${alias}.${quote(theirs)} = ${parent}.${quote(ours)}`
      })
      sql += `${kind}${tableAs(assoc.related.table, alias)} on ${on.join(' and ')}`
    }
  }
  return sql
}

/** The field a condition's reference names, for encoding its value. */
function fieldOf(q: Q, ref: string): Field {
  return (ref.indexOf('.') < 0 && q.schema.fieldsByName[ref]) || resolveRef(q.schema, q.joins, ref).field
}

/** Pushes `value`; its `$n` in the text when emitting. */
function param(w: Walk, value: unknown): string {
  w.params.push(value)
  return w.emit ? `$${w.params.length}` : ''
}

/** One condition: its shape onto the key, its values pushed in text order; returns its SQL when emitting (`s` is then set). */
function condSql(w: Walk, q: Q, s: Scope | undefined, c: Cond): string {
  switch (c['~cond']) {
    case 'op': {
      const op = c.op
      w.key += `${c.field} ${op};`
      if (op === 'is null' || op === 'is not null') return w.emit ? `${col(s!, c.field)} ${op}` : ''
      if (isQuery(c.value)) {
        w.key += '('
        const sub = selectSql(w, c.value, w.emit ? scopeOf(c.value, s) : undefined, 'in', undefined)
        w.key += ')'
        return w.emit ? `${col(s!, c.field)} ${op} (${sub})` : ''
      }
      const field = fieldOf(q, c.field)
      if (op === 'in' || op === 'not in') {
        // One array parameter instead of one per element: the statement doesn't depend on the list length.
        const p = param(
          w,
          (c.value as readonly unknown[]).map((v) => dumpValue(field, v)),
        )
        if (!w.emit) return ''
        return op === 'in' ? `${col(s!, c.field)} = any(${p})` : `not (${col(s!, c.field)} = any(${p}))`
      }
      const p = param(w, dumpValue(field, c.value))
      if (!w.emit) return ''
      if (op === 'not like' || op === 'not ilike') return `not ${col(s!, c.field)} ${op.slice(4)} ${p}`
      return `${col(s!, c.field)} ${op === '!=' ? '<>' : op} ${p}`
    }
    case 'sql':
      return fragmentSql(w, s, c)
    case 'between': {
      w.key += `${c.field} ${c.negated ? 'not ' : ''}between;`
      const field = fieldOf(q, c.field)
      const low = param(w, dumpValue(field, c.low))
      const high = param(w, dumpValue(field, c.high))
      return w.emit ? `${col(s!, c.field)} ${c.negated ? 'not between' : 'between'} ${low} and ${high}` : ''
    }
    case 'and':
    case 'or': {
      const kind = c['~cond']
      w.key += `${kind}(`
      if (c.conds.length === 0) {
        w.key += ')'
        return kind === 'and' ? 'true' : 'false'
      }
      const sql = condsSql(w, q, s, c.conds, kind === 'or' ? ' or ' : ' and ')
      w.key += ')'
      return w.emit ? `(${sql})` : ''
    }
    case 'not': {
      w.key += 'not('
      const sql = condSql(w, q, s, c.cond)
      w.key += ')'
      return w.emit ? `not (${sql})` : ''
    }
    case 'exists': {
      w.key += `exists(${c.correlate ? c.correlate.join('=') : ''};`
      const inner = w.emit ? scopeOf(c.query, s) : undefined
      const correlate =
        c.correlate && inner ? `${col(inner, c.correlate[1])} = ${col(s!, c.correlate[0], true)}` : undefined
      const sub = selectSql(w, c.query, inner, 'exists', correlate)
      w.key += ')'
      return w.emit ? `exists (${sub})` : ''
    }
  }
}

/**
 * A `sql` fragment: its strings and the kind of each argument onto the key, its values pushed; its
 * text when emitting (`field(…)` a column, a nested fragment its SQL, a value `$n`).
 */
function fragmentSql(w: Walk, s: Scope | undefined, f: Sql): string {
  const { parts, args } = f
  // The strings are the program's own template; \0 keeps them apart from the arguments' marks.
  w.key += `sql(${parts[0]!}`
  let sql = w.emit ? parts[0]! : ''
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    let piece: string
    if (isFieldRef(a)) {
      w.key += `\0f${a.ref}\0`
      piece = w.emit ? col(s!, a.ref) : ''
    } else if (isSql(a)) {
      w.key += '\0'
      piece = fragmentSql(w, s, a)
    } else {
      w.key += '\0v\0'
      piece = param(w, a)
    }
    w.key += parts[i + 1]!
    if (w.emit) sql += piece + parts[i + 1]!
  }
  w.key += ')'
  return sql
}

function condsSql(w: Walk, q: Q, s: Scope | undefined, conds: readonly Cond[], joiner: string): string {
  let sql = condSql(w, q, s, conds[0]!)
  for (let i = 1; i < conds.length; i++) {
    const next = condSql(w, q, s, conds[i]!)
    if (w.emit) sql += joiner + next
  }
  return sql
}

function aggregateSql(s: Scope, a: Aggregate): string {
  if (a.arg === undefined) return 'count(*)'
  const d = a.distinct ? 'distinct ' : ''
  if (typeof a.arg === 'string') return `${a.fn}(${d}${col(s, a.arg)})`
  // The operator comes from a fixed set (checked when the aggregate was made), never from a value.
  return `${a.fn}(${d}${col(s, a.arg[0])} ${a.arg[1]} ${col(s, a.arg[2])})`
}

function windowSql(s: Scope, win: Window): string {
  let sql = typeof win.fn === 'string' ? `${win.fn}() over (` : `${aggregateSql(s, win.fn)} over (`
  for (let i = 0; i < win.partitionBy.length; i++) sql += `${i ? ', ' : 'partition by '}${col(s, win.partitionBy[i]!)}`
  for (let i = 0; i < win.orderBy.length; i++) {
    const [f, d] = win.orderBy[i]!
    sql += `${i ? ', ' : win.partitionBy.length ? ' order by ' : 'order by '}${col(s, f)} ${d}`
  }
  return `${sql})`
}

/** A computed column of `select`'s object form: an aggregate, a window function or a fragment (its values pushed). */
function exprSql(w: Walk, s: Scope, v: Aggregate | Window | Sql): string {
  return isSql(v) ? fragmentSql(w, s, v) : isWindow(v) ? windowSql(s, v) : aggregateSql(s, v)
}

/** A computed column's part of the key (a fragment's is added as it is walked). */
function exprKey(v: Aggregate | Window | Sql): string {
  return isSql(v) ? 'sql' : isWindow(v) ? windowKey(v) : aggregateKey(v)
}

// Every column of a schema, unqualified and qualified by its table: the most common select lists.
const allColumns = new WeakMap<AnySchema, { plain: string; qualified: string }>()

/** What a statement selects. */
function columnsSql(w: Walk, s: Scope): string {
  const q = s.q
  if (q.columnsAs) {
    let sql = ''
    for (const name in q.columnsAs) {
      const v = q.columnsAs[name]!
      if (sql) sql += ', '
      if (typeof v !== 'string') sql += `${exprSql(w, s, v)} as ${quote(name)}`
      else if (name === v && !s.qualify && columnOf(q.schema, v) === v) sql += quote(v)
      else sql += `${col(s, v)} as ${quote(name)}`
    }
    return sql
  }
  if (q.columns) {
    let sql = ''
    for (const ref of q.columns) {
      if (sql) sql += ', '
      const plain = ref.indexOf('.') < 0 && columnOf(q.schema, ref) === ref
      sql += plain ? col(s, ref) : `${col(s, ref)} as ${quote(ref)}`
    }
    return sql
  }
  const schema = q.schema
  let all = allColumns.get(schema)
  if (!all) {
    const t = quote(schema.table)
    all = { plain: everyColumn(schema, ''), qualified: everyColumn(schema, `${t}.`) }
    allColumns.set(schema, all)
  }
  if (!s.qualify) return all.plain
  if (s.root === schema.table) return all.qualified
  return everyColumn(schema, `${s.rootQ}.`)
}

/** Every stored column of `schema`, each read back under its field name, `prefix` before each. */
function everyColumn(schema: AnySchema, prefix: string): string {
  const names = sqlOf(schema).columns
  if (schema.columnNames === undefined) return names.map((n) => `${prefix}${quote(n)}`).join(', ')
  return names
    .map((n) => {
      const c = columnOf(schema, n)
      return c === n ? `${prefix}${quote(n)}` : `${prefix}${quote(c)} as ${quote(n)}`
    })
    .join(', ')
}

/** The select list's part of the key. */
function columnsKey(q: Q): string {
  if (q.columnsAs) {
    let key = ' as '
    for (const name in q.columnsAs) {
      const v = q.columnsAs[name]!
      key += `${name}=${typeof v === 'string' ? v : exprKey(v)},`
    }
    return key
  }
  return q.columns ? ` ${q.columns.join(',')}` : ' *'
}

function checkLock(q: Q): void {
  if (!q.rowLock) return
  const aggregates = q.columnsAs !== undefined && Object.values(q.columnsAs).some((v) => typeof v !== 'string')
  if (q.countRows || q.isDistinct || q.extras?.distinctFields || q.groups.length || q.havings.length || aggregates) {
    throw new Error(
      `lock ${q.rowLock.mode}: rows of a count, distinct, grouped or aggregate query cannot be locked (lock the rows themselves)`,
    )
  }
}

/**
 * The SELECT for `q`: its shape onto the key, its values pushed; its text when emitting (`s`, its
 * scope, is then set). `as`: a subquery for `in` or `exists` (which selects `1`, keeps no order,
 * and may end its conditions with `correlate`, the equality tying it to the outer row).
 */
function selectSql(
  w: Walk,
  q: Q,
  s: Scope | undefined,
  as: 'top' | 'in' | 'exists',
  correlate: string | undefined,
): string {
  checkLock(q)
  const emit = w.emit
  let sql = ''
  const named = cteQuery(q.schema)
  if (named) {
    // A CTE's query comes first in the text, so its values are pushed first.
    w.key += `with ${q.schema.table}(`
    const inner = selectSql(w, named, emit ? scopeOf(named, undefined) : undefined, 'top', undefined)
    w.key += ') '
    if (emit) sql = `with ${quote(q.schema.table)} as (${inner}) `
  }
  w.key += q.schema.table
  // The rarely used clauses, looked at only when the query has any (most have none).
  const extras = q.extras
  const distinctFields = extras === undefined ? undefined : extras.distinctFields
  const setOps = extras === undefined ? EMPTY_OPS : (extras.setOps ?? EMPTY_OPS)
  const fragments = extras !== undefined && extras.selectsFragment === true
  if (distinctFields) w.key += ` on(${distinctFields.join(',')})`
  for (const j of q.joins) w.key += ` ${j.kind} ${j.path}`
  w.key += columnsKey(q)
  if (!emit && fragments) {
    // The values of the select list's fragments come before the conditions'.
    for (const name in q.columnsAs) {
      const v = q.columnsAs![name]
      if (isSql(v)) fragmentSql(w, undefined, v)
    }
  }
  if (emit) {
    // A count of a distinct or grouped query counts its rows, so those keep their columns.
    const keepColumns =
      q.isDistinct ||
      distinctFields !== undefined ||
      q.groups.length > 0 ||
      q.columnsAs !== undefined ||
      setOps.length > 0
    if (distinctFields && as !== 'exists') {
      // DISTINCT ON already gives distinct rows, so it stands for `distinct` too.
      sql += 'select distinct on ('
      for (let i = 0; i < distinctFields.length; i++) sql += (i ? ', ' : '') + col(s!, distinctFields[i]!)
      sql += ') '
    } else sql += q.isDistinct && as !== 'exists' ? 'select distinct ' : 'select '
    // A combined query's parts must select the same columns, so an `exists` keeps them; so does
    // a fragment, whose values were pushed.
    sql += (as === 'exists' && !setOps.length && !fragments) || (q.countRows && !keepColumns) ? '1' : columnsSql(w, s!)
    sql += ` from ${tableAs(q.schema.table, s!.rootQ)}`
    if (q.joins.length) sql += joinsSql(s!)
  }
  // Schemas without scopes, queried without joins, skip the look (the common case stays as fast).
  const conds = q.schema.scopes === undefined && q.joins.length === 0 ? q.conds : scopedConds(q)
  if (conds.length) {
    w.key += ' where '
    const where = condsSql(w, q, s, conds, ' and ')
    if (emit) sql += ` where ${where}${correlate ? ` and ${correlate}` : ''}`
  } else if (correlate) sql += ` where ${correlate}`
  if (q.groups.length) {
    w.key += ` group ${q.groups.join(',')}`
    if (emit) {
      sql += ' group by '
      for (let i = 0; i < q.groups.length; i++) sql += (i ? ', ' : '') + col(s!, q.groups[i]!)
    }
  }
  for (let i = 0; i < q.havings.length; i++) {
    const h = q.havings[i]!
    w.key += ` having ${aggregateKey(h.aggregate)}${h.op}`
    const p = param(w, h.value)
    if (emit) sql += `${i ? ' and ' : ' having '}${aggregateSql(s!, h.aggregate)} ${h.op === '!=' ? '<>' : h.op} ${p}`
  }
  if (setOps.length) setOpsSql(w, setOps, (part) => (sql += part))
  if (q.countRows) w.key += ' count'
  else if (as !== 'exists' && q.order.length) {
    w.key += ' order'
    if (emit) sql += ' order by '
    for (let i = 0; i < q.order.length; i++) {
      const [f, d] = q.order[i]!
      if (typeof f !== 'string') {
        w.key += ' '
        const term = fragmentSql(w, s, f)
        w.key += ` ${d}`
        if (emit) sql += `${i ? ', ' : ''}${term} ${d}`
        continue
      }
      w.key += ` ${f} ${d}`
      if (emit) {
        // After a set operation the terms name the combined rows' columns.
        const byName = setOps.length > 0 || (q.columnsAs !== undefined && Object.hasOwn(q.columnsAs, f))
        sql += `${i ? ', ' : ''}${byName ? quote(f) : col(s!, f)} ${d}`
      }
    }
  }
  if (q.isDistinct) w.key += ' distinct'
  if (q.maxRows !== undefined) {
    w.key += ' limit'
    const p = param(w, q.maxRows)
    if (emit) sql += ` limit ${p}`
  }
  if (q.skipRows !== undefined) {
    w.key += ' offset'
    const p = param(w, q.skipRows)
    if (emit) sql += ` offset ${p}`
  }
  if (q.rowLock) {
    const l = ` ${q.rowLock.mode}${q.rowLock.skipLocked ? ' skip locked' : ''}${q.rowLock.noWait ? ' nowait' : ''}`
    w.key += l
    sql += l
  }
  return sql
}

/**
 * `q`'s conditions and its schemas' default scopes (scopes.ts): its own table's, and those of the
 * tables it inner-joins (a row joined to a deleted or another tenant's row is left out). A left
 * join keeps its rows either way: its scopes are not applied.
 */
function scopedConds(q: Q): readonly Cond[] {
  let out: Cond[] | undefined
  const own = q.schema.scopes === undefined ? undefined : scopeConds(q.schema, q.extras?.skipScopes)
  if (own) out = [...q.conds, ...own]
  for (const j of q.joins) {
    if (j.kind === 'left' || j.assoc.related.scopes === undefined) continue
    const joined = scopeConds(j.assoc.related, q.extras?.skipScopes)
    if (!joined) continue
    out ??= [...q.conds]
    for (const c of joined) out.push({ ...c, field: `${j.path}.${(c as { field: string }).field}` } as Cond)
  }
  return out ?? q.conds
}

/** The queries combined with a select (`union`, …): each in parentheses, with its own order and limit. */
function setOpsSql(w: Walk, ops: readonly SetOp[], out: (sql: string) => void): void {
  for (const { op, query } of ops) {
    w.key += ` ${op} (`
    const sub = selectSql(w, query, w.emit ? scopeOf(query, undefined) : undefined, 'top', undefined)
    w.key += ')'
    if (w.emit) out(` ${op} (${sub})`)
  }
}

type Shape = NonNullable<Statement['shape']>

/** The row shaper of `q`, or null: list-form paths nested, `sum` / `avg` (numeric, given as text) made numbers. */
function shapeOf(q: Q): Shape | null {
  if (q.countRows) return null
  if (q.columnsAs) {
    const numeric = Object.entries(q.columnsAs)
      .filter(([, v]) => {
        const a =
          typeof v === 'string' || isSql(v)
            ? undefined
            : isWindow(v)
              ? typeof v.fn === 'string'
                ? undefined
                : v.fn
              : v
        return (
          a !== undefined &&
          (a.fn === 'sum' || a.fn === 'avg' || ((a.fn === 'min' || a.fn === 'max') && Array.isArray(a.arg)))
        )
      })
      .map(([n]) => n)
    if (numeric.length === 0) return null
    return (row) => {
      for (const n of numeric) if (typeof row[n] === 'string') row[n] = Number(row[n])
      return row
    }
  }
  const nested = (q.columns ?? []).filter((r) => r.indexOf('.') >= 0).map((r) => [r, r.split('.')] as const)
  if (nested.length === 0) return null
  const plain = q.columns!.filter((r) => r.indexOf('.') < 0)
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

interface Cached {
  readonly sql: string
  readonly shape: Shape | undefined
}
// Shapes come from code, so they are few; the cap only guards against a generated-shape leak.
const MAX_SHAPES = 5000
const cache = new Map<string, Cached>()

/**
 * One walk over `q`: key and parameters into `w`, and the text when `w.emit`. The count wrapper
 * adds no values, so it goes around the text afterwards.
 */
function walkSelect(w: Walk, q: Q): string {
  const sql = selectSql(w, q, w.emit ? scopeOf(q, undefined) : undefined, 'top', undefined)
  return w.emit && q.countRows ? `select count(*) as "count" from (${sql}) as "counted"` : sql
}

/** SQL, parameters and key of a SELECT (with `shape` for the rows when they need one). */
export function compileSelectKeyed(q: Q): KeyedStatement {
  let w: Walk = { key: 'select ', params: [], emit: false }
  walkSelect(w, q)
  let hit = cache.get(w.key)
  if (!hit) {
    w = { key: 'select ', params: [], emit: true }
    const sql = walkSelect(w, q)
    if (cache.size >= MAX_SHAPES) cache.clear()
    cache.set(w.key, (hit = { sql, shape: shapeOf(q) ?? undefined }))
  }
  return { key: w.key, sql: hit.sql, params: w.params, shape: hit.shape }
}

/** SQL and parameters of a SELECT (with `shape` for the rows when they need one). */
export function compileSelect(q: Q): Statement {
  return compileSelectKeyed(q)
}

function checkBulk(q: Q, what: string): void {
  if (
    q.maxRows !== undefined ||
    q.skipRows !== undefined ||
    q.order.length ||
    q.columns ||
    q.columnsAs ||
    q.countRows ||
    q.joins.length ||
    q.groups.length ||
    q.havings.length ||
    q.isDistinct ||
    q.rowLock ||
    q.extras?.setOps ||
    q.extras?.distinctFields
  ) {
    throw new Error(
      `${what}: only where clauses apply (no join, limit, offset, orderBy, select, groupBy, having, distinct, lock, union or count)`,
    )
  }
}

/** The WHERE of an UPDATE or DELETE: written each time (they are rare next to SELECTs). */
function whereSql(q: Q, params: unknown[]): string {
  const conds = q.schema.scopes === undefined ? q.conds : scopedConds(q)
  if (!conds.length) return ''
  const w: Walk = { key: '', params, emit: true }
  return ` where ${condsSql(w, q, scopeOf(q, undefined), conds, ' and ')}`
}

/** UPDATE … SET fields WHERE …; `set` keys must be fields (checked by the caller). */
export function compileUpdateAll(q: Q, set: Record<string, unknown>): Statement {
  checkBulk(q, 'updateAll')
  const fields = Object.keys(set).sort()
  if (fields.length === 0) throw new Error('updateAll: nothing to set')
  const params: unknown[] = []
  let sql = `update ${quote(q.schema.table)} set `
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!
    params.push(dumpValue(q.schema.fieldsByName[f]!, set[f]))
    sql += `${i ? ', ' : ''}${quote(columnOf(q.schema, f))} = $${params.length}`
  }
  sql += whereSql(q, params)
  return { sql, params }
}

/** DELETE … WHERE …. */
export function compileDeleteAll(q: Q): Statement {
  checkBulk(q, 'deleteAll')
  const params: unknown[] = []
  const sql = `delete from ${quote(q.schema.table)}${whereSql(q, params)}`
  return { sql, params }
}
