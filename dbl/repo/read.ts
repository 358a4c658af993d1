/**
 * Reads: `all`, `one`, `get`, `getBy`, `count`. They give values (rows, a record or `undefined`, a
 * number), as Ecto's `Repo.all` / `Repo.one` do; a database failure is thrown (`throwRead`). The
 * rows and records still answer the older `{ ok, value }` reading for a release (old-read-shape.ts).
 */
import { castersOf, INVALID } from '../cast.ts'
import { MultipleResultsError } from '../multiple-results-error.ts'
import { and, cond } from '../query/conditions.ts'
import { from, withCount } from '../query/builder.ts'
import type { Cond, Query } from '../query/types.ts'
import { compileSelect } from '../query/compile.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { columnOf } from '../column-names.ts'
import { compiled, kx, loadKnex, marker, paramsFor, sqlOf, type Compiled } from '../sql.ts'
import { loadRows } from './load-rows.ts'
import { exec, throwRead, type RepoContext } from './context.ts'
import { withOldReadShape } from './old-read-shape.ts'
import { compositeKeyValues } from '../primary-key.ts'

/** Every row of `q`, as its type promises (embedded fields loaded, joined fields nested). */
export function all<S extends AnySchema, R, J>(ctx: RepoContext, q: Query<S, R, J>): Promise<R[]> {
  return rowsOf(ctx, q, true)
}

/** The rows of `q`; `forApp` attaches the old result getters to the array the app gets. */
async function rowsOf<S extends AnySchema, R, J>(ctx: RepoContext, q: Query<S, R, J>, forApp: boolean): Promise<R[]> {
  const { sql, params, shape } = compileSelect(q)
  let raw: Record<string, unknown>[]
  try {
    raw = (await exec(ctx, sql, params, 'SELECT', q.schema.table)).rows
  } catch (e) {
    throwRead(e)
  }
  const result = typedRows(q, raw, shape)
  return forApp ? withOldReadShape(result) : result
}

/**
 * The rows a select of `q` returned, as its type promises: embedded fields loaded (an object-form
 * select names its own columns and is left as it is), joined fields nested by `shape`.
 */
export function typedRows<S extends AnySchema, R, J>(
  q: Query<S, R, J>,
  raw: Record<string, unknown>[],
  shape: ((row: Record<string, unknown>) => unknown) | undefined,
): R[] {
  const rows = q.columnsAs ? raw : loadRows(q.schema, raw)
  return (shape ? rows.map(shape) : rows) as R[]
}

/** The one row of `q`, or `undefined` for none; several rows throw a `MultipleResultsError`. */
export async function one<S extends AnySchema, R, J>(ctx: RepoContext, q: Query<S, R, J>): Promise<R | undefined> {
  // Two rows are enough to tell one from many (a count query always has one).
  const rows = await rowsOf(ctx, q.maxRows === undefined && !q.countRows ? q.limit(2) : q, false)
  if (rows.length > 1) throw new MultipleResultsError(q.schema.table)
  return withOldReadShape(rows[0])
}

/** How many rows `q` gives (limit and offset bound what is counted; ordering is ignored). */
export async function count<S extends AnySchema, R, J>(ctx: RepoContext, q: Query<S, R, J>): Promise<number> {
  const rows = await rowsOf(ctx, withCount(q), false)
  return Number((rows[0] as { count: unknown }).count)
}

// The hottest statement: kept per schema, so a get builds no cache key.
const getStatements = new WeakMap<AnySchema, Compiled>()

/**
 * The record with this primary key, or `undefined`. The id is cast to the key's type first: one
 * that cannot be (`'abc'` for an id) matches nothing, without a query. A composite key is an object
 * naming every key field (`compositeKeyValues`, primary-key.ts).
 */
export async function get<S extends AnySchema>(
  ctx: RepoContext,
  schema: S,
  id: unknown,
): Promise<RecordOf<S> | undefined> {
  const keys = schema.primaryKeys
  let values: unknown[] | undefined
  if (keys.length > 1) values = compositeKeyValues(schema, id, 'get')
  else {
    const value = id === null || id === undefined ? INVALID : castersOf(schema)[keys[0]!]!(id)
    if (value !== INVALID) values = [value]
  }
  if (values === undefined) return undefined
  // Scoped rows are filtered as every query is: through the query compiler.
  if (schema.scopes !== undefined) {
    const conds = keys.map((k, i) => cond(k, '=', values[i]))
    return one(ctx, from(schema).where((conds.length === 1 ? conds[0]! : and(...conds)) as never)) as never
  }
  let c = getStatements.get(schema)
  if (!c) {
    if (!kx) await loadKnex()
    getStatements.set(
      schema,
      (c = compiled(`get ${schema.table}`, () => {
        const b = kx(schema.table).select(sqlOf(schema).selectList)
        keys.forEach((k, i) => b.where(columnOf(schema, k), marker(i)))
        return b
      })),
    )
  }
  let rows: Record<string, unknown>[]
  try {
    rows = (await exec(ctx, c.sql, paramsFor(c, values), 'SELECT', schema.table)).rows
  } catch (e) {
    throwRead(e)
  }
  return rows.length ? withOldReadShape(loadRows(schema, rows)[0] as RecordOf<S>) : undefined
}

/**
 * The one record matching every clause (`null` = IS NULL), or `undefined`. Values are cast like
 * `get`'s id, so one that cannot be cast matches nothing. Several matching records throw a
 * `MultipleResultsError` (as `one`): picking any of them would give whichever the database
 * happened to read first.
 */
export async function getBy<S extends AnySchema>(
  ctx: RepoContext,
  schema: S,
  clauses: { readonly [K in keyof RecordOf<S>]?: RecordOf<S>[K] | null },
): Promise<RecordOf<S> | undefined> {
  const casters = castersOf(schema)
  const conds: Cond[] = []
  for (const [field, raw] of Object.entries(clauses)) {
    const caster = Object.hasOwn(casters, field) ? casters[field] : undefined
    if (!caster) throw new Error(`schema ${schema.table} has no field ${JSON.stringify(field)}`)
    if (raw === undefined) throw new Error(`getBy { ${field}: undefined }: a value is missing (use null for IS NULL)`)
    const value = raw === null ? null : caster(raw)
    if (value === INVALID) return undefined
    // Always equality (a list value is an array column's value here, not IN).
    conds.push(value === null ? cond(field, 'is null') : cond(field, '=', value))
  }
  // Two rows are enough to tell one from many.
  const { sql, params } = compileSelect(
    from(schema)
      .where(and(...conds) as never)
      .limit(2),
  )
  let rows: Record<string, unknown>[]
  try {
    rows = (await exec(ctx, sql, params, 'SELECT', schema.table)).rows
  } catch (e) {
    throwRead(e)
  }
  if (rows.length > 1) throw new MultipleResultsError(schema.table)
  return rows.length ? withOldReadShape(loadRows(schema, rows)[0] as RecordOf<S>) : undefined
}
