/**
 * Bulk operations (Ecto's insert_all / update_all / delete_all): no changesets, no casting, one
 * statement. Keys must be schema fields; jsonb values are serialised. `insertAll` returns every
 * column of the inserted rows, or the fields of its `returning` option, and fills
 * `inserted_at` / `updated_at` when the schema has them and a row doesn't.
 */
import type { DbError } from '../db-error.ts'
import type { QueryParts } from '../query/types.ts'
import { compileDeleteAll, compileUpdateAll } from '../query/compile.ts'
import { ok, type Result } from '../result.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { columnsOf, selectAs } from '../column-names.ts'
import { dumpValue, kx, loadKnex, marker, outsideEnum, sqlOf } from '../sql.ts'
import { loadRows } from './load-rows.ts'
import { exec, failure, type RepoContext } from './context.ts'
import type { DeleteOptions } from './write.ts'
import { scopeFilters } from '../scopes.ts'

/** Keys must be stored fields; an enum value must be listed (reading the row back would throw a `LoadError`). */
function checkKeys(schema: AnySchema, row: object, what: string): void {
  for (const k of Object.keys(row)) {
    if (!Object.hasOwn(schema.fieldsByName, k))
      throw new Error(`${what}: schema ${schema.table} has no field ${JSON.stringify(k)}`)
    if (schema.fieldsByName[k]!.virtual) throw new Error(`${what}: ${schema.table}.${k} is virtual (never stored)`)
    const e = sqlOf(schema).enums.find((x) => x.name === k)
    const bad = e && outsideEnum(e, (row as Record<string, unknown>)[k])
    if (bad)
      throw new Error(
        `${what}: ${schema.table}.${k}: ${JSON.stringify(bad.value)} is not one of its enum values ${e.values.map((v) => JSON.stringify(v)).join(', ')}`,
      )
  }
}

/** `row` with each non-null scope value it leaves unset. */
function withScope(row: Record<string, unknown>, scope: Record<string, unknown>): Record<string, unknown> {
  let out = row
  for (const f in scope) if (row[f] === undefined && scope[f] !== null) out = { ...out, [f]: scope[f] }
  return out
}

/** `returning`: the fields to give back (every column when undefined; checked to be stored fields). */
export async function insertAll<S extends AnySchema>(
  ctx: RepoContext,
  schema: S,
  rows: readonly Partial<RecordOf<S>>[],
  returning?: readonly string[],
): Promise<Result<{ count: number; rows: RecordOf<S>[] }, DbError>> {
  if (returning !== undefined) {
    if (!Array.isArray(returning)) throw new Error('insertAll: returning is a list of fields')
    for (const f of returning) {
      if (typeof f !== 'string' || !Object.hasOwn(schema.fieldsByName, f) || schema.fieldsByName[f]!.virtual)
        throw new Error(`insertAll: returning: schema ${schema.table} has no stored field ${JSON.stringify(f)}`)
    }
  }
  if (rows.length === 0) return ok({ count: 0, rows: [] })
  // As insert: a scoped field a row leaves unset takes the scope's value (the current tenant).
  const scope = schema.scopes === undefined ? undefined : scopeFilters(schema)
  if (scope) rows = rows.map((r) => withScope(r as Record<string, unknown>, scope) as Partial<RecordOf<S>>)
  const now = new Date()
  const stamps = ['inserted_at', 'updated_at'].filter((t) => schema.fieldsByName[t])
  const fields = new Set<string>(stamps)
  for (const r of rows) {
    checkKeys(schema, r, 'insertAll')
    for (const k of Object.keys(r)) fields.add(k)
  }
  const columns = [...fields].sort()
  // The statement names each field's column (the field's name unless it has a `column`).
  const names = columnsOf(schema, columns)
  const values: unknown[] = []
  // Row count varies per call, so this shape is compiled each time rather than cached.
  const data = rows.map((r) => {
    const src = r as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!
      const v = src[c] == null && stamps.includes(c) ? now : src[c]
      // A field missing from this row takes the column default (knex writes DEFAULT for undefined).
      if (v === undefined) continue
      out[names[i]!] = marker(values.length)
      values.push(dumpValue(schema.fieldsByName[c]!, v))
    }
    return out
  })
  if (!kx) await loadKnex()
  const insert = kx(schema.table).insert(data)
  const back = returning ? returning.map((f) => selectAs(schema, f)) : sqlOf(schema).selectList
  const native = (back.length ? insert.returning(back as string[]) : insert).toSQL().toNative()
  const params = native.bindings.map((b) => values[(b as number) - marker(0)])
  try {
    const res = await exec(ctx, native.sql, params, 'INSERT', schema.table)
    return ok({ count: res.rowCount, rows: loadRows(schema, res.rows) as RecordOf<S>[] })
  } catch (e) {
    return failure(e)
  }
}

export async function updateAll<S extends AnySchema>(
  ctx: RepoContext,
  q: QueryParts<S>,
  set: Partial<RecordOf<S>>,
): Promise<Result<{ count: number }, DbError>> {
  checkKeys(q.schema, set, 'updateAll')
  const { sql, params } = compileUpdateAll(q, set as Record<string, unknown>)
  try {
    return ok({ count: (await exec(ctx, sql, params, 'UPDATE', q.schema.table)).rowCount })
  } catch (e) {
    return failure(e)
  }
}

/**
 * DELETE of every row `q` matches (its schema's scopes applied); for a `softDelete` schema an
 * UPDATE setting the deleted-at column of those not deleted yet, unless `hard`.
 */
export async function deleteAll(
  ctx: RepoContext,
  q: QueryParts,
  opts: DeleteOptions = {},
): Promise<Result<{ count: number }, DbError>> {
  const soft = q.schema.softDelete
  const { sql, params } =
    soft === undefined || opts.hard ? compileDeleteAll(q) : compileUpdateAll(q, { [soft]: new Date() })
  try {
    return ok({ count: (await exec(ctx, sql, params, 'DELETE', q.schema.table)).rowCount })
  } catch (e) {
    return failure(e)
  }
}
