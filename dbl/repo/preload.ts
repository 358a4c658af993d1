/**
 * `preload(schema, records, spec)`: Ecto's separate-query preload. One query per association per
 * level (`WHERE key = ANY($1)` over the keys of every record at that level, duplicates and nulls
 * dropped), so 100 posts with their comments and the comments' authors are three queries, never
 * N+1. Returns new records with the associations set: belongsTo / hasOne → the record or null,
 * hasMany → a list ordered by primary key (a hasOne matching several rows takes the first of them).
 * Spec shapes and types: preload_spec.ts.
 */
import type { DbError } from '../db_error.ts'
import { from, orderBy, where } from '../query.ts'
import { compileSelect } from '../query_compile.ts'
import { ok, type Result } from '../result.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { loadRows } from '../embedded.ts'
import { exec, readFailure, type RepoContext } from './context.ts'
import { resolveSpec, type PreloadNode, type Preloaded, type PreloadSpec } from './preload_spec.ts'

type Row = Record<string, unknown>

const present = (k: unknown): boolean => k !== null && k !== undefined

/** Loads one association (and, below it, its nested ones) for all `records` at once. */
async function loadNode(ctx: RepoContext, records: readonly Row[], node: PreloadNode): Promise<Result<Row[], DbError>> {
  const { assoc } = node
  const related = assoc.related
  const owning = assoc.kind === 'belongsTo'
  // belongsTo: match our foreign key against their primary key; otherwise our key against their foreign key.
  const ourKey = owning ? assoc.foreignKey : assoc.owner.primaryKey
  const theirKey = owning ? related.primaryKey : assoc.foreignKey
  const keys = [...new Set(records.map((r) => r[ourKey]).filter(present))]
  let found: Row[] = []
  if (keys.length) {
    const q = orderBy(where(from(related), theirKey as never, 'in', keys as never), related.primaryKey as never)
    const { sql, params } = compileSelect(q)
    try {
      found = loadRows(related, (await exec(ctx, sql, params, `SELECT ${related.table}`)).rows)
    } catch (e) {
      return readFailure(e)
    }
  }
  // The next level runs once over every row found here, whichever parent it belongs to.
  const nested = await loadAll(ctx, found, node.children)
  if (!nested.ok) return nested
  const groups = new Map<string, Row[]>()
  for (const row of nested.value) {
    const k = String(row[theirKey])
    const list = groups.get(k)
    if (list) list.push(row)
    else groups.set(k, [row])
  }
  return ok(
    records.map((r) => {
      const matches = present(r[ourKey]) ? (groups.get(String(r[ourKey])) ?? []) : []
      return { ...r, [assoc.name]: assoc.kind === 'hasMany' ? matches : (matches[0] ?? null) }
    }),
  )
}

async function loadAll(ctx: RepoContext, records: readonly Row[], nodes: readonly PreloadNode[]): Promise<Result<Row[], DbError>> {
  let rows = records as Row[]
  for (const node of nodes) {
    const res = await loadNode(ctx, rows, node)
    if (!res.ok) return res
    rows = res.value
  }
  return ok(rows)
}

/** Throws for a name the schemas do not have or rows without the keys (programming errors), before any query. */
export async function preload<S extends AnySchema, const P extends PreloadSpec<S>>(
  ctx: RepoContext,
  schema: S,
  records: readonly RecordOf<S>[],
  spec: P,
): Promise<Result<Preloaded<S, P>[], DbError>> {
  const nodes = resolveSpec(schema, spec)
  // Rows from a `select` without the key would silently get [] / null: refuse them instead.
  for (const { assoc } of nodes) {
    const key = assoc.kind === 'belongsTo' ? assoc.foreignKey : schema.primaryKey
    if (records.some((r) => !Object.hasOwn(r, key))) throw new Error(`preload ${schema.table}.${assoc.name}: a record has no "${key}" field (select it)`)
  }
  return (await loadAll(ctx, records as readonly Row[], nodes)) as Result<Preloaded<S, P>[], DbError>
}
