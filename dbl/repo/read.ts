/** Reads: `all`, `one`, `get`, `getBy`. */
import { castersOf, INVALID } from '../cast.ts'
import type { DbError } from '../db-error.ts'
import { and, cond, from, limit, where, type Cond, type Query } from '../query.ts'
import { compileSelect } from '../query-compile.ts'
import { err, ok, type Result } from '../result.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { compiled, kx, marker, sqlOf, type Compiled } from '../sql.ts'
import { loadRows } from '../embedded.ts'
import { exec, readFailure, type RepoContext } from './context.ts'

export async function all<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
): Promise<Result<R[], DbError>> {
  const { sql, params, shape } = compileSelect(q)
  try {
    const raw = (await exec(ctx, sql, params, `SELECT ${q.schema.table}`)).rows
    // Embedded fields come back typed; an object-form select names its own columns.
    const rows = q.selectAs ? raw : loadRows(q.schema, raw)
    return ok((shape ? rows.map(shape) : rows) as R[])
  } catch (e) {
    return readFailure(e)
  }
}

/** Exactly one row: none is `not_found`, more than one is `multiple_results` (Ecto raises for both). */
export async function one<S extends AnySchema, R, J>(
  ctx: RepoContext,
  q: Query<S, R, J>,
): Promise<Result<R, 'not_found' | 'multiple_results' | DbError>> {
  // Two rows are enough to tell one from many (a count query always has one).
  const res = await all(ctx, q.limit === undefined && !q.count ? limit(q, 2) : q)
  if (!res.ok) return res
  if (res.value.length === 0) return err('not_found')
  if (res.value.length > 1) return err('multiple_results')
  return ok(res.value[0]!)
}

// An error here cannot come from the id (it was cast first), so it is infrastructure: reject.
function unexpected(e: unknown): never {
  const f = readFailure(e)
  throw Object.assign(new Error(`vela.dbl: ${f.error.message}`), { dbError: f.error })
}

// The hottest statement: kept per schema, so a get builds no cache key.
const getStatements = new WeakMap<AnySchema, Compiled>()

/**
 * The record with this primary key. The id is cast to the key's type first: one that cannot be
 * (`'abc'` for an id) matches nothing, so it is `not_found` too, without a query.
 */
export async function get<S extends AnySchema>(
  ctx: RepoContext,
  schema: S,
  id: unknown,
): Promise<Result<RecordOf<S>, 'not_found'>> {
  const pk = schema.primaryKey
  const value = id === null || id === undefined ? INVALID : castersOf(schema)[pk]!(id)
  if (value === INVALID) return err('not_found')
  let c = getStatements.get(schema)
  if (!c)
    getStatements.set(
      schema,
      (c = compiled(`get ${schema.table}`, () => kx(schema.table).select(sqlOf(schema).columns).where(pk, marker(0)))),
    )
  let rows: unknown[]
  try {
    rows = (await exec(ctx, c.sql, [value], `SELECT ${schema.table}`)).rows
  } catch (e) {
    unexpected(e)
  }
  return rows.length ? ok(loadRows(schema, rows)[0] as RecordOf<S>) : err('not_found')
}

/**
 * The one record matching every clause (`null` = IS NULL). Values are cast like `get`'s id, so one
 * that cannot be cast is `not_found`. Several matching records are `multiple_results` (as `one`):
 * picking any of them would give whichever the database happened to read first.
 */
export async function getBy<S extends AnySchema>(
  ctx: RepoContext,
  schema: S,
  clauses: { readonly [K in keyof RecordOf<S>]?: RecordOf<S>[K] | null },
): Promise<Result<RecordOf<S>, 'not_found' | 'multiple_results'>> {
  const casters = castersOf(schema)
  const conds: Cond[] = []
  for (const [field, raw] of Object.entries(clauses)) {
    const caster = Object.hasOwn(casters, field) ? casters[field] : undefined
    if (!caster) throw new Error(`schema ${schema.table} has no field ${JSON.stringify(field)}`)
    if (raw === undefined) throw new Error(`getBy { ${field}: undefined }: a value is missing (use null for IS NULL)`)
    const value = raw === null ? null : caster(raw)
    if (value === INVALID) return err('not_found')
    // Always equality (a list value is an array column's value here, not IN).
    conds.push(value === null ? cond(field, 'is null') : cond(field, '=', value))
  }
  // Two rows are enough to tell one from many.
  const { sql, params } = compileSelect(limit(where(from(schema), and(...conds) as never), 2))
  let rows: unknown[]
  try {
    rows = (await exec(ctx, sql, params, `SELECT ${schema.table}`)).rows
  } catch (e) {
    unexpected(e)
  }
  if (rows.length > 1) return err('multiple_results')
  return rows.length ? ok(loadRows(schema, rows)[0] as RecordOf<S>) : err('not_found')
}
