/**
 * `preload(schema, records, spec)`: Ecto's separate-query preload. One query per association per
 * level (`WHERE key = ANY($1)` over the keys of every record at that level, duplicates and nulls
 * dropped), so 100 posts with their comments and the comments' authors are three queries, never
 * N+1. Returns new records with the associations set: belongsTo / hasOne → the record or null,
 * hasMany / manyToMany → a list ordered by primary key (a hasOne matching several rows takes the
 * first of them). A manyToMany level is one query too: the related table joined to the join table.
 * Spec shapes and types: preload-spec.ts.
 */
import { from } from '../query/builder.ts'
import { compileSelect } from '../query/compile.ts'
import type { AnySchema, RecordOf } from '../schema.ts'
import { loadRows } from './load-rows.ts'
import { kx, loadKnex, paramsFor } from '../sql.ts'
import { exec, throwRead, type RepoContext } from './context.ts'
import { resolveSpec, type PreloadNode, type Preloaded, type PreloadSpec } from './preload-spec.ts'
import { OWNER_ALIAS, selectThrough } from './through-sql.ts'

type Row = Record<string, unknown>

const present = (k: unknown): boolean => k !== null && k !== undefined

/** The related rows of one level (each once), and which owner key each belongs to, in key order. */
interface Level {
  readonly rows: Row[]
  /** `[owner key, index in rows]`; a manyToMany row linked to several owners appears once per owner. */
  readonly links: readonly (readonly [unknown, number])[]
}

/**
 * belongsTo: our foreign key against their primary key; hasOne / hasMany: our key against their
 * foreign key; manyToMany: our key against the join table's, with the related row joined to it.
 */
async function fetchLevel(ctx: RepoContext, keys: readonly unknown[], node: PreloadNode): Promise<Level> {
  const { assoc } = node
  const related = assoc.related
  const through = assoc.through
  if (keys.length === 0) return { rows: [], links: [] }
  const theirKey = assoc.kind === 'belongsTo' ? related.primaryKey : assoc.foreignKey
  let found: Row[]
  try {
    if (through) {
      if (!kx) await loadKnex()
      const c = selectThrough(through)
      found = loadRows(related, (await exec(ctx, c.sql, paramsFor(c, [keys]), 'SELECT', related.table)).rows)
      if (related.scopes !== undefined && found.length) found = await inScope(ctx, related, found)
    } else {
      const { sql, params } = compileSelect(
        from(related)
          .where(theirKey as never, 'in', keys as never)
          .orderBy(related.primaryKey as never),
      )
      found = loadRows(related, (await exec(ctx, sql, params, 'SELECT', related.table)).rows)
    }
  } catch (e) {
    throwRead(e)
  }
  if (!through) return { rows: found, links: found.map((row, i) => [row[theirKey], i] as const) }
  const rows: Row[] = []
  const at = new Map<string, number>()
  const links = found.map(({ [OWNER_ALIAS]: owner, ...row }) => {
    const k = String(row[related.primaryKey])
    let i = at.get(k)
    if (i === undefined) at.set(k, (i = rows.push(row) - 1))
    return [owner, i] as const
  })
  return { rows, links }
}

/**
 * The rows of a scoped schema (scopes.ts) its scopes keep: the join table's statement knows no
 * scopes, so a second query asks which of the linked keys they let through.
 */
async function inScope(ctx: RepoContext, related: AnySchema, found: Row[]): Promise<Row[]> {
  const pk = related.primaryKey
  const { sql, params } = compileSelect(
    from(related)
      .select([pk] as never)
      .where(pk as never, 'in', [...new Set(found.map((r) => r[pk]))] as never),
  )
  const kept = new Set((await exec(ctx, sql, params, 'SELECT', related.table)).rows.map((r) => String(r[pk])))
  return found.filter((r) => kept.has(String(r[pk])))
}

/** Loads one association (and, below it, its nested ones) for all `records` at once. */
async function loadNode(ctx: RepoContext, records: readonly Row[], node: PreloadNode): Promise<Row[]> {
  const { assoc } = node
  const ourKey = assoc.kind === 'belongsTo' ? assoc.foreignKey : assoc.owner.primaryKey
  const keys = [...new Set(records.map((r) => r[ourKey]).filter(present))]
  const level = await fetchLevel(ctx, keys, node)
  // The next level runs once over every row found here, whichever parent it belongs to.
  const nested = await loadAll(ctx, level.rows, node.children)
  const groups = new Map<string, Row[]>()
  for (const [owner, i] of level.links) {
    const k = String(owner)
    const list = groups.get(k)
    if (list) list.push(nested[i]!)
    else groups.set(k, [nested[i]!])
  }
  const many = assoc.kind === 'hasMany' || assoc.kind === 'manyToMany'
  return records.map((r) => {
    const matches = present(r[ourKey]) ? (groups.get(String(r[ourKey])) ?? []) : []
    return { ...r, [assoc.name]: many ? matches : (matches[0] ?? null) }
  })
}

async function loadAll(ctx: RepoContext, records: readonly Row[], nodes: readonly PreloadNode[]): Promise<Row[]> {
  let rows = records as Row[]
  for (const node of nodes) rows = await loadNode(ctx, rows, node)
  return rows
}

/** Throws for a name the schemas do not have or rows without the keys (programming errors), before any query. */
export async function preload<S extends AnySchema, const P extends PreloadSpec<S>>(
  ctx: RepoContext,
  schema: S,
  records: readonly RecordOf<S>[],
  spec: P,
): Promise<Preloaded<S, P>[]> {
  const nodes = resolveSpec(schema, spec)
  // Rows from a `select` without the key would silently get [] / null: refuse them instead.
  for (const { assoc } of nodes) {
    const key = assoc.kind === 'belongsTo' ? assoc.foreignKey : schema.primaryKey
    if (records.some((r) => !Object.hasOwn(r, key)))
      throw new Error(`preload ${schema.table}.${assoc.name}: a record has no "${key}" field (select it)`)
  }
  return (await loadAll(ctx, records as readonly Row[], nodes)) as Preloaded<S, P>[]
}
