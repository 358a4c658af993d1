/**
 * `preload(schema, records, assocs)`: one query per association (Ecto's separate-query preload),
 * `WHERE key = ANY($1)` over the keys of all given records. Returns new records with the
 * association set: belongsTo / hasOne → the record or null, hasMany → a list ordered by key.
 */
import { resolveAssoc } from '../assoc.ts'
import type { DbError } from '../db_error.ts'
import { from, orderBy, where } from '../query.ts'
import { compileSelect } from '../query_compile.ts'
import { ok, type Result } from '../result.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { exec, failure, type RepoContext } from './context.ts'

type Row = Record<string, unknown>

/** A record with its preloaded associations (their row types are not tracked by the schema type). */
export type Preloaded<S extends AnySchema, A extends string> = RecordOf<S> & { [K in A]: unknown }

async function loadAssoc(ctx: RepoContext, schema: AnySchema, records: Row[], name: string): Promise<Result<Row[], DbError>> {
  const assoc = resolveAssoc(schema, name)
  const related = assoc.related
  const owning = assoc.kind === 'belongsTo'
  // belongsTo: match our foreign key against their primary key; otherwise our key against their foreign key.
  const ourKey = owning ? assoc.foreignKey : schema.primaryKey
  const theirKey = owning ? related.primaryKey : assoc.foreignKey
  const keys = [...new Set(records.map((r) => r[ourKey]).filter((k) => k !== null && k !== undefined))]
  let found: Row[] = []
  if (keys.length) {
    const q = orderBy(where(from(related), theirKey as never, 'in', keys as never), related.primaryKey as never)
    const { sql, params } = compileSelect(q)
    try {
      found = (await exec(ctx, sql, params, `SELECT ${related.table}`)).rows
    } catch (e) {
      return failure(e)
    }
  }
  const groups = new Map<string, Row[]>()
  for (const row of found) {
    const k = String(row[theirKey])
    const list = groups.get(k)
    if (list) list.push(row)
    else groups.set(k, [row])
  }
  return ok(
    records.map((r) => {
      const matches = r[ourKey] === null || r[ourKey] === undefined ? [] : (groups.get(String(r[ourKey])) ?? [])
      return { ...r, [name]: assoc.kind === 'hasMany' ? matches : (matches[0] ?? null) }
    }),
  )
}

export async function preload<S extends AnySchema, A extends string>(
  ctx: RepoContext,
  schema: S,
  records: readonly RecordOf<S>[],
  assocs: A | readonly A[],
): Promise<Result<Preloaded<S, A>[], DbError>> {
  let rows = records as unknown as Row[]
  for (const name of typeof assocs === 'string' ? [assocs] : assocs) {
    const res = await loadAssoc(ctx, schema, rows, name)
    if (!res.ok) return res
    rows = res.value
  }
  return ok(rows as Preloaded<S, A>[])
}
