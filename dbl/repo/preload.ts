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
import { and, cond } from '../query/conditions.ts'
import { keyText } from '../primary-key.ts'
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
  /** `[owner key as text, index in rows]`; a manyToMany row linked to several owners appears once per owner. */
  readonly links: readonly (readonly [string, number])[]
}

/** The columns of the owners' rows and of the related rows that must be equal (one pair per key column). */
function keyColumns(assoc: PreloadNode['assoc']): { ours: readonly string[]; theirs: readonly string[] } {
  return assoc.kind === 'belongsTo'
    ? { ours: assoc.foreignKeys, theirs: assoc.keys }
    : { ours: assoc.keys, theirs: assoc.foreignKeys }
}

/**
 * belongsTo: our foreign key against their primary key; hasOne / hasMany: our key against their
 * foreign key; manyToMany: our key against the join table's, with the related row joined to it.
 * `keys` are the owners' distinct keys: values for a one-column key, lists for a composite one.
 */
async function fetchLevel(ctx: RepoContext, keys: readonly unknown[], node: PreloadNode): Promise<Level> {
  const { assoc } = node
  const related = assoc.related
  const through = assoc.through
  if (keys.length === 0) return { rows: [], links: [] }
  const theirs = keyColumns(assoc).theirs
  let found: Row[]
  try {
    if (through) {
      if (!kx) await loadKnex()
      const c = selectThrough(through)
      found = loadRows(related, (await exec(ctx, c.sql, paramsFor(c, [keys]), 'SELECT', related.table)).rows)
      if (related.scopes !== undefined && found.length) found = await inScope(ctx, related, found)
    } else if (theirs.length === 1) {
      const { sql, params } = compileSelect(
        from(related)
          .where(theirs[0] as never, 'in', keys as never)
          .orderBy(...(related.primaryKeys as never[])),
      )
      found = loadRows(related, (await exec(ctx, sql, params, 'SELECT', related.table)).rows)
    } else {
      found = await fetchByCompositeKey(ctx, related, theirs, keys as readonly (readonly unknown[])[])
    }
  } catch (e) {
    throwRead(e)
  }
  if (!through) return { rows: found, links: found.map((row, i) => [keyText(row, theirs), i] as const) }
  const rows: Row[] = []
  const at = new Map<string, number>()
  const links = found.map(({ [OWNER_ALIAS]: owner, ...row }) => {
    const k = String(row[related.primaryKey])
    let i = at.get(k)
    if (i === undefined) at.set(k, (i = rows.push(row) - 1))
    return [String(owner), i] as const
  })
  return { rows, links }
}

/**
 * Rows whose `columns` hold one of the `tuples`. Asked as `a = ANY($1) AND b = ANY($2)`, one
 * statement shape whatever the number of owners (the statement cache keeps it), which may also
 * match mixed pairs; those are dropped here.
 */
async function fetchByCompositeKey(
  ctx: RepoContext,
  related: AnySchema,
  columns: readonly string[],
  tuples: readonly (readonly unknown[])[],
): Promise<Row[]> {
  const conds = columns.map((c, i) => cond(c, 'in', [...new Set(tuples.map((t) => t[i]))]))
  const { sql, params } = compileSelect(
    from(related)
      .where(and(...conds) as never)
      .orderBy(...(related.primaryKeys as never[])),
  )
  const wanted = new Set(tuples.map((t) => JSON.stringify(t)))
  const rows = loadRows(related, (await exec(ctx, sql, params, 'SELECT', related.table)).rows)
  return rows.filter((r) => wanted.has(keyText(r, columns)))
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
  const ours = keyColumns(assoc).ours
  const level = await fetchLevel(ctx, ownerKeys(records, ours), node)
  // The next level runs once over every row found here, whichever parent it belongs to.
  const nested = await loadAll(ctx, level.rows, node.children)
  const groups = new Map<string, Row[]>()
  for (const [owner, i] of level.links) {
    const list = groups.get(owner)
    if (list) list.push(nested[i]!)
    else groups.set(owner, [nested[i]!])
  }
  const many = assoc.kind === 'hasMany' || assoc.kind === 'manyToMany'
  // A one-column key reads its column directly: no per-row work for composite keys' sake.
  const one = ours.length === 1 ? ours[0]! : undefined
  return records.map((r) => {
    const found =
      one !== undefined
        ? present(r[one])
          ? groups.get(String(r[one]))
          : undefined
        : hasKey(r, ours)
          ? groups.get(keyText(r, ours))
          : undefined
    const matches = found ?? []
    return { ...r, [assoc.name]: many ? matches : (matches[0] ?? null) }
  })
}

const hasKey = (r: Row, columns: readonly string[]): boolean => columns.every((c) => present(r[c]))

/** The distinct keys of the records that have one: values for one column, lists of values for several. */
function ownerKeys(records: readonly Row[], columns: readonly string[]): unknown[] {
  if (columns.length === 1) {
    const c = columns[0]!
    return [...new Set(records.map((r) => r[c]).filter(present))]
  }
  const seen = new Map<string, unknown[]>()
  for (const r of records)
    if (hasKey(r, columns))
      seen.set(
        keyText(r, columns),
        columns.map((c) => r[c]),
      )
  return [...seen.values()]
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
    for (const key of keyColumns(assoc).ours)
      if (records.some((r) => !Object.hasOwn(r, key)))
        throw new Error(`preload ${schema.table}.${assoc.name}: a record has no "${key}" field (select it)`)
  }
  return (await loadAll(ctx, records as readonly Row[], nodes)) as Preloaded<S, P>[]
}
