/**
 * Queries (query.ts) to SQL and parameters. A walk over the query yields its shape key and its
 * values in a fixed order; knex only runs, with marker values, the first time a shape is seen.
 */
import type { Knex } from 'knex'
import { compiled, dumpValue, kx, marker, paramsFor, sqlOf } from './sql.ts'
import type { Cond, Query } from './query.ts'
import type { AnySchema } from './schema.ts'

export interface Statement {
  readonly sql: string
  readonly params: unknown[]
}

/** Appends the shape of `c` to the key and its values to `values`. */
function walk(schema: AnySchema, c: Cond, values: unknown[]): string {
  switch (c['~cond']) {
    case 'op':
      if (c.op !== 'is null' && c.op !== 'is not null') {
        const field = schema.fieldsByName[c.field]!
        values.push(Array.isArray(c.value) && c.op.endsWith('in') ? c.value.map((v) => dumpValue(field, v)) : dumpValue(field, c.value))
      }
      return `${c.field} ${c.op}`
    case 'and':
    case 'or':
      return `${c['~cond']}(${c.conds.map((x) => walk(schema, x, values)).join(',')})`
    case 'not':
      return `not(${walk(schema, c.cond, values)})`
  }
}

type Builder = Knex.QueryBuilder
type AnyQuery = Query<AnySchema, unknown>

function valueCount(c: Cond): number {
  if (c['~cond'] === 'op') return c.op === 'is null' || c.op === 'is not null' ? 0 : 1
  if (c['~cond'] === 'not') return valueCount(c.cond)
  return c.conds.reduce((n, x) => n + valueCount(x), 0)
}

/**
 * Replays the same walk on a knex builder, with markers numbered in the order `walk` pushed values.
 * knex runs group callbacks only when it compiles, after later clauses (limit, offset) took their
 * markers, so each group reserves its range of numbers now and numbers its inside from a copy.
 */
function apply(b: Builder, c: Cond, useOr: boolean, next: { i: number }): void {
  const w = useOr ? b.orWhere.bind(b) : b.where.bind(b)
  switch (c['~cond']) {
    case 'op': {
      const f = c.field
      if (c.op === 'is null') return void (useOr ? b.orWhereNull(f) : b.whereNull(f))
      if (c.op === 'is not null') return void (useOr ? b.orWhereNotNull(f) : b.whereNotNull(f))
      const m = marker(next.i++)
      // One array parameter instead of one per element: the statement shape doesn't depend on the list length.
      if (c.op === 'in') return void (useOr ? b.orWhereRaw('?? = any(?)', [f, m]) : b.whereRaw('?? = any(?)', [f, m]))
      if (c.op === 'not in') return void (useOr ? b.orWhereRaw('not (?? = any(?))', [f, m]) : b.whereRaw('not (?? = any(?))', [f, m]))
      if (c.op.startsWith('not ')) return void (useOr ? b.orWhereNot(f, c.op.slice(4), m) : b.whereNot(f, c.op.slice(4), m))
      return void w(f, c.op === '!=' ? '<>' : c.op, m)
    }
    case 'and':
    case 'or': {
      if (c.conds.length === 0) return void (useOr ? b.orWhereRaw(c['~cond'] === 'and' ? 'true' : 'false') : b.whereRaw(c['~cond'] === 'and' ? 'true' : 'false'))
      const inner = c['~cond'] === 'or'
      const local = { i: next.i }
      next.i += valueCount(c)
      return void w((sub: Builder) => {
        for (const x of c.conds) apply(sub, x, inner, local)
      })
    }
    case 'not': {
      const local = { i: next.i }
      next.i += valueCount(c)
      const build = (sub: Builder) => apply(sub, c.cond, false, local)
      return void (useOr ? b.orWhereNot(build) : b.whereNot(build))
    }
  }
}

function whereKey(q: AnyQuery, values: unknown[]): string {
  let key = ''
  for (const c of q.where) key += walk(q.schema, c, values) + ';'
  return key
}

function applyWheres(b: Builder, q: AnyQuery, next: { i: number }): Builder {
  for (const c of q.where) apply(b, c, false, next)
  return b
}

export function compileSelect(q: AnyQuery): Statement {
  const values: unknown[] = []
  const table = q.schema.table
  const cols = q.select ?? sqlOf(q.schema).columns
  let key = `select ${table} ${q.count ? 'count' : cols.join(',')} where ${whereKey(q, values)}`
  if (!q.count) key += ` order ${q.orderBy.map(([f, d]) => f + ' ' + d).join(',')}`
  if (q.limit !== undefined) (key += ' limit'), values.push(q.limit)
  if (q.offset !== undefined) (key += ' offset'), values.push(q.offset)
  const c = compiled(key, () => {
    const next = { i: 0 }
    const inner = applyWheres(kx(table).select(q.count ? kx.raw('1') : cols), q, next)
    if (!q.count) for (const [f, d] of q.orderBy) inner.orderBy(f, d)
    if (q.limit !== undefined) inner.limit(marker(next.i++))
    if (q.offset !== undefined) inner.offset(marker(next.i++))
    if (!q.count) return inner
    return kx.count({ count: '*' }).from(inner.as('counted'))
  })
  return { sql: c.sql, params: paramsFor(c, values) }
}

function checkBulk(q: AnyQuery, what: string): void {
  if (q.limit !== undefined || q.offset !== undefined || q.orderBy.length || q.select || q.count) {
    throw new Error(`${what}: only where clauses apply (no limit, offset, orderBy, select or count)`)
  }
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

export function compileDeleteAll(q: AnyQuery): Statement {
  checkBulk(q, 'deleteAll')
  const values: unknown[] = []
  const key = `delete ${q.schema.table} where ${whereKey(q, values)}`
  const c = compiled(key, () => applyWheres(kx(q.schema.table).del(), q, { i: 0 }))
  return { sql: c.sql, params: paramsFor(c, values) }
}
