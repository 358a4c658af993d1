/**
 * Keysets: paging through a query by the values of its ordering rather than by an offset, for
 * `repo.paginate(q, { after, limit })` and for `repo.stream` on PGlite. The next page is the rows
 * that sort after the last row read: `(a > v1) or (a = v1 and b > v2) or …`, written with the
 * query builder's own conditions, so it compiles (and is cached) as any `where` does.
 *
 * The ordering must end in the primary key: only a unique last term makes "after this row"
 * exact, so rows inserted or deleted elsewhere never make a page repeat or skip a row. NULLs sort
 * as PostgreSQL sorts them by default (last ascending, first descending), so a nullable term is
 * compared with that in mind.
 *
 * A cursor is the last row's values of those terms as base64url JSON, led by a short hash of the
 * ordering, so a cursor made for another ordering is refused. It is not signed: it only says where
 * to start in rows the query may read anyway, and every value is cast to its field's type before
 * it reaches a statement.
 */
import { createHash } from 'node:crypto'
import { casterFor, INVALID, type Caster } from '../cast.ts'
import { PaginationError } from '../pagination-error.ts'
import type { AnySchema } from '../schema.ts'
import { and, cond, or } from './conditions.ts'
import { resolveRef } from './paths.ts'
import type { Cond, Direction, QueryParts } from './types.ts'

type Row = Record<string, unknown>

/** One term of a keyset: the field it compares, where a row holds its value, its direction. */
interface KeyTerm {
  /** The field reference conditions name (a select's output name resolved to its field). */
  readonly field: string
  readonly dir: Direction
  readonly read: (row: Row) => unknown
  readonly cast: Caster
  readonly nullable: boolean
}

/** A query's keyset: its terms, the ordering's hash, and the ordering to run the query with. */
export interface Keyset {
  readonly terms: readonly KeyTerm[]
  readonly signature: string
  readonly order: readonly (readonly [string, Direction])[]
}

/** Where a row of `q` holds the value of order term `ref`, or undefined when its rows do not hold it. */
function reader(q: QueryParts, ref: string): { field: string; read: (row: Row) => unknown } | undefined {
  const as = q.columnsAs
  if (as) {
    if (Object.hasOwn(as, ref)) {
      const v = as[ref]!
      return typeof v === 'string' ? { field: v, read: (r) => r[ref] } : undefined
    }
    const name = Object.keys(as).find((n) => as[n] === ref)
    return name === undefined ? undefined : { field: ref, read: (r) => r[name] }
  }
  if (q.columns && !q.columns.includes(ref)) return undefined
  if (ref.indexOf('.') < 0) return { field: ref, read: (r) => r[ref] }
  // Joined fields are only in the rows when the list form of select names them (nested).
  if (!q.columns) return undefined
  const path = ref.split('.')
  return { field: ref, read: (r) => path.reduce<unknown>((o, k) => (o as Row | null | undefined)?.[k], r) }
}

/**
 * The keyset of `q`. `complete`: an ordering that does not end in the primary key gets it added
 * (a stream has no cursor to keep stable); otherwise such an ordering throws (`what` names the
 * caller). Also throws when the rows do not hold a term's value, or the query is grouped.
 */
export function keysetOf(q: QueryParts, what: string, complete: boolean): Keyset {
  const schema: AnySchema = q.schema
  const pk = schema.primaryKey
  const isPk = (ref: string) => ref === pk || (q.columnsAs !== undefined && q.columnsAs[ref] === pk)
  if (q.groups.length || q.havings.length || q.countRows)
    throw new Error(`${what}: a grouped or counted query has no row to continue after; page its rows without groupBy`)
  if (q.order.some(([ref]) => typeof ref !== 'string'))
    throw new Error(`${what}: a query ordered by a sql fragment has no row to continue after; order by fields`)
  let order = q.order as readonly (readonly [string, 'asc' | 'desc'])[]
  const last = order[order.length - 1]
  if (schema.primaryKeys.length > 1) {
    order = withCompositeKey(order, schema.primaryKeys, q.columnsAs, what, complete)
  } else if (!last || !isPk(last[0])) {
    if (!complete)
      throw new Error(
        `${what}: the query must be ordered by fields ending in the primary key, so each row has one place (add .orderBy('${pk}') last)`,
      )
    order = [...order, [pk, 'asc']]
  }
  const terms = order.map(([ref, dir]): KeyTerm => {
    const at = reader(q, ref)
    if (!at) throw new Error(`${what}: the rows must hold the order-by field ${JSON.stringify(ref)}; select it too`)
    const { path, field } = resolveRef(schema, q.joins, at.field)
    // A joined field may be null even when its column is not: a left join that found nothing.
    return { field: at.field, dir, read: at.read, cast: casterFor(field.type), nullable: field.nullable || !!path }
  })
  const signature = createHash('sha256')
    .update(`${schema.table}:${order.map(([r, d]) => `${r} ${d}`).join(',')}`)
    .digest('base64url')
    .slice(0, 8)
  return { terms, signature, order }
}

/**
 * An ordering over a composite key: rows have one place once every key field is among its terms
 * (wherever they are). `complete` adds the missing ones, ascending; otherwise they are required.
 */
function withCompositeKey(
  order: readonly (readonly [string, 'asc' | 'desc'])[],
  keys: readonly string[],
  columnsAs: QueryParts['columnsAs'],
  what: string,
  complete: boolean,
): readonly (readonly [string, 'asc' | 'desc'])[] {
  const named = new Set(order.map(([ref]) => (typeof columnsAs?.[ref] === 'string' ? columnsAs[ref] : ref)))
  const missing = keys.filter((k) => !named.has(k))
  if (missing.length === 0) return order
  if (!complete)
    throw new Error(
      `${what}: the query must be ordered by every field of the primary key (${keys.join(', ')}), so each row has one place (add .orderBy(${missing.map((k) => `'${k}'`).join(', ')}))`,
    )
  return [...order, ...missing.map((k) => [k, 'asc'] as const)]
}

/** The condition "sorts after the row whose term values are `values`" (NULLs last ascending, first descending). */
export function afterCond(ks: Keyset, values: readonly unknown[]): Cond {
  const alternatives: Cond[] = []
  const equal: Cond[] = []
  ks.terms.forEach((t, i) => {
    const v = values[i]
    let after: Cond | undefined
    if (v === null || v === undefined) after = t.dir === 'desc' ? cond(t.field, 'is not null') : undefined
    else if (t.dir === 'desc') after = cond(t.field, '<', v)
    else after = t.nullable ? or(cond(t.field, '>', v), cond(t.field, 'is null')) : cond(t.field, '>', v)
    if (after) alternatives.push(equal.length ? and(...equal, after) : after)
    equal.push(v === null || v === undefined ? cond(t.field, 'is null') : cond(t.field, '=', v))
  })
  return or(...alternatives)
}

/** The term values of `row` (a row of the query the keyset was made for). */
export function keyOf(ks: Keyset, row: Row): unknown[] {
  return ks.terms.map((t) => t.read(row) ?? null)
}

/** An opaque cursor for the row whose term values are `values`. */
export function encodeCursor(ks: Keyset, values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify([ks.signature, ...values])).toString('base64url')
}

/** The term values a cursor holds, cast to their fields' types; a `PaginationError` for anything else. */
export function decodeCursor(ks: Keyset, cursor: unknown): unknown[] {
  const bad = (why: string) =>
    new PaginationError('after', `invalid cursor: ${why}; pass the \`after\` of the previous page unchanged`)
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,4096}$/.test(cursor)) throw bad('not a cursor string')
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw bad('it does not decode')
  }
  if (!Array.isArray(parsed) || parsed.length !== ks.terms.length + 1 || parsed[0] !== ks.signature)
    throw bad('it was not made for this query and ordering')
  return ks.terms.map((t, i) => {
    const v = parsed[i + 1]
    if (v === null && t.nullable) return null
    const value = v === null ? INVALID : t.cast(v)
    if (value === INVALID) throw bad(`its ${t.field} is not a valid value`)
    return value
  })
}
