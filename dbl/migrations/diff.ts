/**
 * Model (from migrations) vs model (from schemas) → operations. The diff never loses data on a
 * guess: a table missing from the schemas is only reported unless a `dropTables` decision names it,
 * and a column disappearing while another appears in the same table is a possible rename that needs
 * a decision (see `MigrationDecisionError`). `down()` is the same diff run backwards with every
 * decision inverted, so the two directions cannot disagree about what a change means. Foreign keys
 * decide the order of operations (see `diffModels`), and both directions are replayed on the model
 * before anything is returned, so a plan PostgreSQL would refuse is an error here, not at migrate time.
 */
import {
  defaultSql,
  sameReferences,
  sqlType,
  type ResolvedColumn,
  type ResolvedForeignKey,
  type ResolvedReferences,
} from './columns.ts'
import { isUniqueColumn } from './foreign-keys.ts'
import { applyOperation, cloneModel, type Model, type TableModel } from './model.ts'
import {
  addCheck,
  addColumn,
  addForeignKey,
  alterTable,
  createIndex,
  createTable,
  dropCheck,
  dropColumn,
  dropForeignKey,
  dropIndex,
  dropTable,
  modifyColumn,
  renameColumn,
  setPrimaryKey,
  type Column,
  type ColumnChange,
  type CheckDefinition,
  type ColumnModification,
  type IndexDefinition,
  type Operation,
  type References,
} from './operations.ts'
import { creationOrder, isDeferred } from './table-order.ts'
import { compositeKeyChanges, foreignKeyOf } from './composite-keys.ts'
import { MigrationDecisionError, type Ambiguity, type Decisions } from './decisions.ts'

export { MigrationDecisionError, type Ambiguity, type Decisions } from './decisions.ts'

/** The column as a migration file writes it: only options that differ from their defaults. */
export function columnOf(c: ResolvedColumn): Column {
  const nullableByDefault = !c.primaryKey && c.type !== 'id'
  return {
    name: c.name,
    type: c.type,
    ...(c.primaryKey ? { primaryKey: true } : {}),
    ...(c.nullable !== nullableByDefault ? { nullable: c.nullable } : {}),
    ...(c.default !== undefined ? { default: c.default } : {}),
    ...(c.size !== undefined ? { size: c.size } : {}),
    ...(c.references ? { references: referencesOf(c.references) } : {}),
  }
}

/** References as a migration file writes them: `column`, `onDelete` and `onUpdate` only when not the default. */
function referencesOf(r: ResolvedReferences): References {
  return {
    table: r.table,
    ...(r.column !== 'id' ? { column: r.column } : {}),
    ...(r.onDelete !== 'no_action' ? { onDelete: r.onDelete } : {}),
    ...(r.onUpdate !== 'no_action' ? { onUpdate: r.onUpdate } : {}),
  }
}

/** The `createIndex` operation for an index of the model. */
const createIndexOf = (ix: IndexDefinition): Operation =>
  createIndex(ix.table, ix.columns, {
    unique: ix.unique,
    name: ix.name,
    ...(ix.where !== undefined ? { where: ix.where } : {}),
  })

const typeKey = (c: ResolvedColumn) => sqlType(c.type, c.size)
const defaultKey = (c: ResolvedColumn) => defaultSql(c.default, c.type, `column ${c.name}`)
/** Types whose default literal cannot be written without knowing the type (see ddl.ts). */
const needsTypeForDefault = (c: ResolvedColumn) => c.type === 'jsonb' || typeof c.type === 'object'

/** What `modifyColumn` must set to turn `from` into `to`; undefined when nothing differs. */
function modification(from: ResolvedColumn, to: ResolvedColumn): ColumnModification | undefined {
  const typeChanged = typeKey(from) !== typeKey(to)
  const defaultChanged = defaultKey(from) !== defaultKey(to)
  // After a type change the default is re-set explicitly rather than cast by PostgreSQL.
  const setDefault = defaultChanged || (typeChanged && (from.default !== undefined || to.default !== undefined))
  const setType = typeChanged || (setDefault && to.default !== undefined && needsTypeForDefault(to))
  const set: ColumnModification = {
    ...(setType ? { type: to.type, ...(to.size !== undefined ? { size: to.size } : {}) } : {}),
    ...(from.nullable !== to.nullable ? { nullable: to.nullable } : {}),
    ...(setDefault ? { default: to.default ?? null } : {}),
    ...(!sameReferences(from.references, to.references)
      ? { references: to.references ? referencesOf(to.references) : null }
      : {}),
  }
  return Object.keys(set).length > 0 ? set : undefined
}

interface TableDiff {
  readonly operations: Operation[]
  /** Multi-column foreign keys to drop before any table changes, and to add after them all. */
  readonly keyDrops: ColumnChange[]
  readonly keyAdds: ColumnChange[]
  readonly warnings: string[]
  readonly ambiguity: Ambiguity | undefined
}

/** The decided renames of one kept table: old name → new name, with their operations and warnings. */
function tableRenames(from: TableModel, to: TableModel, decisions: Decisions) {
  const table = to.name
  const warnings: string[] = []
  const changes: ColumnChange[] = []
  const fromNames = new Set(from.columns.map((c) => c.name))
  const toNames = new Set(to.columns.map((c) => c.name))
  const renamed = new Map<string, string>()
  for (const col of to.columns) {
    const old = decisions.renames?.[`${table}.${col.name}`]
    if (old === undefined || fromNames.has(col.name)) continue // no decision, or already applied
    if (toNames.has(old))
      throw new Error(
        `${table}.${col.name} is declared renamed from "${old}", but "${old}" is still a field of the ${table} schema`,
      )
    if (!fromNames.has(old)) {
      warnings.push(
        `${table}.${col.name} is declared renamed from "${old}", which does not exist; "${col.name}" is added as a new column`,
      )
      continue
    }
    renamed.set(old, col.name)
    changes.push(renameColumn(old, col.name))
  }
  return { renamed, changes, warnings }
}

/** Rewrites a reference to a column renamed in this migration: PostgreSQL's keys follow renames. */
type FollowRenames = (refs: ResolvedReferences | undefined) => ResolvedReferences | undefined

function diffTable(from: TableModel, to: TableModel, decisions: Decisions, follow: FollowRenames): TableDiff {
  const table = to.name
  const toNames = new Set(to.columns.map((c) => c.name))
  // Column name in `from` → name it has after this migration's renames.
  const { renamed, changes, warnings } = tableRenames(from, to, decisions)
  const current = from.columns.map((c) => ({
    ...c,
    name: renamed.get(c.name) ?? c.name,
    references: follow(c.references),
  }))
  const currentNames = new Set(current.map((c) => c.name))
  const disappearing = current.filter((c) => !toNames.has(c.name)).map((c) => c.name)
  const appearing = to.columns.filter((c) => !currentNames.has(c.name))
  const undecided = disappearing.filter((c) => !decisions.dropColumns?.includes(`${table}.${c}`))
  const ambiguity =
    appearing.length > 0 && undecided.length > 0
      ? { table, disappearing: undecided, appearing: appearing.map((c) => c.name) }
      : undefined

  for (const name of disappearing) changes.push(dropColumn(name))
  // A NOT NULL column without a default is a safety check (safety.ts), refused or acknowledged later.
  for (const col of appearing) changes.push(addColumn(columnOf(col)))
  // Before the modifications: a column leaving the key can only become nullable once it has left.
  const key = primaryKeyChange(current, appearing, to)
  if (key) changes.push(key)
  for (const col of to.columns) {
    const before = current.find((c) => c.name === col.name)
    if (!before) continue
    const set = modification(before, col)
    if (set) changes.push(modifyColumn(col.name, set))
    if (before.references && !col.references) {
      // Also what a key written by hand in a migration, with no belongsTo behind it, comes to.
      warnings.push(
        `${table}.${col.name} loses its foreign key to ${before.references.table}.${before.references.column}: no belongsTo of the ${table} schema declares it`,
      )
    }
    if (!before.references && col.references) {
      warnings.push(
        `${table}.${col.name} gets a foreign key to ${col.references.table}.${col.references.column}: the migration fails if a row of ${table} has a ${col.name} that matches none`,
      )
    }
  }

  const keys = compositeKeyChanges(from, to, renamed, follow)

  // Indexes and checks are matched by name; one whose definition changed (columns, uniqueness,
  // predicate, expression: SQL compared as text) is dropped and created again. Drops go first, so
  // a check on a column dropped here goes before its column does.
  const fromIndexes = from.indexes.map((ix) => ({ ...ix, columns: ix.columns.map((c) => renamed.get(c) ?? c) }))
  const same = (a: IndexDefinition, b: IndexDefinition) =>
    a.unique === b.unique && a.columns.join('\0') === b.columns.join('\0') && a.where === b.where
  const dropped = fromIndexes.filter((ix) => !to.indexes.some((t) => t.name === ix.name && same(ix, t)))
  const created = to.indexes.filter((ix) => !fromIndexes.some((f) => f.name === ix.name && same(ix, f)))
  const sameCheck = (a: CheckDefinition, b: CheckDefinition) => a.name === b.name && a.check === b.check
  const droppedChecks = from.checks.filter((c) => !to.checks.some((t) => sameCheck(c, t)))
  const addedChecks = to.checks.filter((c) => !from.checks.some((f) => sameCheck(c, f)))
  const operations: Operation[] = [
    ...droppedChecks.map((c) => dropCheck(table, c.name)),
    ...dropped.map((ix) => dropIndex(table, ix.name)),
    ...(changes.length > 0 ? [alterTable(table, changes)] : []),
    ...created.map(createIndexOf),
    ...addedChecks.map((c) => addCheck(table, c.name, c.check)),
  ]
  return { operations, warnings, ambiguity, keyDrops: keys.drop, keyAdds: keys.add }
}

/**
 * `setPrimaryKey` when the key's columns differ as a set; its columns in the order the table has
 * them after this migration (kept columns, then added ones), the order the model and the DDL share.
 */
function primaryKeyChange(
  current: readonly ResolvedColumn[],
  appearing: readonly ResolvedColumn[],
  to: TableModel,
): ColumnChange | undefined {
  const wanted = new Set(to.columns.filter((c) => c.primaryKey).map((c) => c.name))
  const had = current.filter((c) => c.primaryKey).map((c) => c.name)
  if (had.length === wanted.size && had.every((c) => wanted.has(c))) return undefined
  const order = [...current, ...appearing].map((c) => c.name).filter((c) => wanted.has(c))
  return order.length > 0 ? setPrimaryKey(order) : undefined
}

export interface ModelDiff {
  readonly operations: Operation[]
  readonly warnings: string[]
  readonly ambiguities: Ambiguity[]
}

/** One `alterTable` per table, setting (or with `null`, dropping) the listed foreign keys. */
function foreignKeyChanges(
  model: Model,
  refs: readonly { table: string; column: string }[],
  drop: boolean,
): Operation[] {
  const tables = [...new Set(refs.map((r) => r.table))]
  return tables.map((table) => {
    const columns = refs
      .filter((r) => r.table === table)
      .map((r) => model.get(table)!.columns.find((c) => c.name === r.column)!)
    return alterTable(
      table,
      columns.map((c) => modifyColumn(c.name, { references: drop ? null : referencesOf(c.references!) })),
    )
  })
}

/**
 * One direction of the diff. Ambiguities are returned, not thrown, so callers can collect them all.
 * Order: new tables (each after the tables it references), foreign keys of dropped tables that must
 * go first, changes to kept tables, foreign keys kept out of `createTable` (a cycle's), then dropped
 * tables (referencing ones first).
 */
export function diffModels(from: Model, to: Model, decisions: Decisions = {}): ModelDiff {
  const operations: Operation[] = []
  const warnings: string[] = []
  const ambiguities: Ambiguity[] = []
  // A key between a new (or dropped) table and a kept one waits for (or goes before) the kept
  // table's changes when the column it points at is only there, and unique, after (or before) them.
  const settledIn = (m: Model) => (_: TableModel, c: ResolvedColumn) => {
    const target = c.references!.table
    return from.has(target) && to.has(target) && !isUniqueColumn(m.get(target)!, c.references!.column)
  }
  const created = creationOrder(
    [...to.values()].filter((t) => !from.has(t.name)),
    settledIn(from),
  )
  const dropped = creationOrder(
    [...from.values()].filter((t) => !to.has(t.name) && decisions.dropTables?.includes(t.name)),
    settledIn(to),
  )
  const laterKeys: Operation[] = []
  const made = new Set<string>()
  for (const t of created.order) {
    const columns = t.columns.map((c) =>
      isDeferred(created.deferred, t.name, c.name) ? { ...c, references: undefined } : c,
    )
    made.add(t.name)
    // A multi-column key to a table that exists by now is written into createTable; else added last.
    const keys = t.foreignKeys ?? []
    const ready = (fk: ResolvedForeignKey) => made.has(fk.table) || (from.has(fk.table) && to.has(fk.table))
    const inline = keys.filter(ready).map(foreignKeyOf)
    const later = keys.filter((fk) => !ready(fk))
    if (later.length > 0)
      laterKeys.push(
        alterTable(
          t.name,
          later.map((fk) => addForeignKey(foreignKeyOf(fk))),
        ),
      )
    operations.push(createTable(t.name, columns.map(columnOf), { foreignKeys: inline }))
    operations.push(...t.indexes.map(createIndexOf))
    operations.push(...t.checks.map((c) => addCheck(t.name, c.name, c.check)))
  }
  operations.push(...foreignKeyChanges(from, dropped.deferred, true))
  // Multi-column keys between dropped tables go first, so the drop order need not follow them.
  for (const t of dropped.order) {
    const keys = (t.foreignKeys ?? []).filter((fk) => fk.table !== t.name)
    if (keys.length > 0)
      operations.push(
        alterTable(
          t.name,
          keys.map((fk) => dropForeignKey(fk.columns)),
        ),
      )
  }
  const kept = [...to.values()].filter((t) => from.has(t.name))
  const renames = new Map(
    kept.flatMap((t) =>
      [...tableRenames(from.get(t.name)!, t, decisions).renamed].map(([old, neu]) => [`${t.name}.${old}`, neu]),
    ),
  )
  const follow: FollowRenames = (r) =>
    r && renames.has(`${r.table}.${r.column}`) ? { ...r, column: renames.get(`${r.table}.${r.column}`)! } : r
  // Referenced tables' changes first, so a key added to a column renamed there finds its new name.
  const diffs = creationOrder(kept).order.map((t) => ({ t, d: diffTable(from.get(t.name)!, t, decisions, follow) }))
  // Multi-column keys are dropped before any table changes (the key they point at may change) and added after all.
  for (const { t, d } of diffs) if (d.keyDrops.length > 0) operations.push(alterTable(t.name, d.keyDrops))
  for (const { d } of diffs) {
    operations.push(...d.operations)
    warnings.push(...d.warnings)
    if (d.ambiguity) ambiguities.push(d.ambiguity)
  }
  for (const { t, d } of diffs) if (d.keyAdds.length > 0) operations.push(alterTable(t.name, d.keyAdds))
  operations.push(...foreignKeyChanges(to, created.deferred, false))
  operations.push(...laterKeys)
  operations.push(...[...dropped.order].reverse().map((t) => dropTable(t.name)))
  for (const t of from.values()) {
    if (to.has(t.name)) continue
    if (!decisions.dropTables?.includes(t.name)) {
      warnings.push(
        `table "${t.name}" is in the migrations but no schema uses it; it is kept. ` +
          `To drop it with its data, pass decisions { dropTables: ['${t.name}'] } (CLI: --drop-table ${t.name})`,
      )
    }
  }
  return { operations, warnings, ambiguities }
}

export interface MigrationPlan {
  readonly up: Operation[]
  readonly down: Operation[]
  readonly warnings: string[]
}

/** `up` and `down` for turning `from` into `to`; throws `MigrationDecisionError` when a decision is missing. */
export function planMigration(from: Model, to: Model, decisions: Decisions = {}): MigrationPlan {
  const forward = diffModels(from, to, decisions)
  if (forward.ambiguities.length > 0) throw new MigrationDecisionError(forward.ambiguities)
  // Backwards, every forward rename is undone, every added column is dropped, every created
  // table dropped; tables forward kept (not dropped) must stay, so they are not named.
  const renames: Record<string, string> = {}
  const dropColumns: string[] = []
  const dropTables = [...to.keys()].filter((t) => !from.has(t))
  for (const op of forward.operations) {
    if (op.op !== 'alterTable') continue
    for (const c of op.changes) {
      if (c.change === 'renameColumn') renames[`${op.table}.${c.from}`] = c.to
      if (c.change === 'addColumn') dropColumns.push(`${op.table}.${c.column.name}`)
    }
  }
  const target = new Map([...from].filter(([name]) => to.has(name) || decisions.dropTables?.includes(name)))
  const backward = diffModels(to, target, { renames, dropColumns, dropTables })
  // Replaying both directions refuses what PostgreSQL would refuse at migrate time (a table
  // dropped while something still references it, …), so such a plan is never written.
  const after = replay(from, forward.operations, 'up()')
  replay(after, backward.operations, 'down()')
  return { up: forward.operations, down: backward.operations, warnings: forward.warnings }
}

function replay(model: Model, ops: readonly Operation[], which: string): Model {
  const copy = cloneModel(model)
  for (const op of ops) applyOperation(copy, op, `Migration not generated: its ${which} would fail`)
  return copy
}
