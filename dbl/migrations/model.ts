/**
 * The database as the migrations describe it: tables → columns, indexes and checks. Built two ways — by
 * replaying migrations' `up()` operations in order, and from the schemas — so the diff compares two
 * values of the same shape. Replay follows PostgreSQL's own rules where they matter to a diff
 * (dropping a column drops the indexes and checks that use it; renaming a column renames it inside
 * indexes and in the foreign keys pointing at it) and refuses what PostgreSQL would refuse about
 * foreign keys (see foreign-keys.ts). A check's or a partial index's SQL stays the text it was
 * written as: which columns it uses is read off its names (`sqlNames`), without parsing SQL.
 */
import type { AnySchema, OnDelete, OnUpdate } from '../schema.ts'
import { columnOf } from '../column-names.ts'
import { resolveAssoc, type ResolvedAssoc } from '../assoc.ts'
import {
  resolveColumn,
  resolveForeignKey,
  resolveReferences,
  sameForeignKey,
  sameReferences,
  type ResolvedColumn,
} from './columns.ts'
import {
  checkColumnDrop,
  checkIndexDrop,
  checkReference,
  checkTableDrop,
  followRename,
  referencing,
} from './foreign-keys.ts'
import { addJoinTables } from './join-tables.ts'
import {
  addForeignKeyTo,
  checkPrimaryKeyChange,
  checkTableDropComposite,
  dropColumnComposite,
  dropForeignKeyFrom,
  followRenameComposite,
} from './composite-keys.ts'
import { withAuditTable } from '../audit/entry.ts'
import { sqlNames } from '../schema-constraints.ts'
import type { ColumnChange, Operation } from './operations.ts'
import type { Migration } from './load.ts'
import type { Model, TableModel } from './table-model.ts'

export type { Model, TableModel } from './table-model.ts'

function table(model: Model, name: string, where: string): TableModel {
  const t = model.get(name)
  if (!t) throw new Error(`${where}: table "${name}" does not exist at this point of the migrations`)
  return t
}

function columnIndex(t: TableModel, name: string, where: string): number {
  const i = t.columns.findIndex((c) => c.name === name)
  if (i < 0) throw new Error(`${where}: table "${t.name}" has no column "${name}"`)
  return i
}

function applyChange(model: Model, t: TableModel, change: ColumnChange, where: string): void {
  switch (change.change) {
    case 'addColumn': {
      if (t.columns.some((c) => c.name === change.column.name))
        throw new Error(`${where}: table "${t.name}" already has a column "${change.column.name}"`)
      const column = resolveColumn(change.column)
      checkReference(model, t, column, where)
      t.columns.push(column)
      return
    }
    case 'dropColumn': {
      checkColumnDrop(model, t.name, change.name, where)
      dropColumnComposite(model, t, change.name, where)
      // Dropping a key column drops the whole primary key constraint (PostgreSQL's rule).
      if (t.columns[columnIndex(t, change.name, where)]!.primaryKey) {
        checkPrimaryKeyChange(model, t, where)
        t.columns = t.columns.map((c) => (c.primaryKey ? { ...c, primaryKey: false } : c))
      }
      t.columns.splice(columnIndex(t, change.name, where), 1)
      const uses = (sql: string | undefined) => sql !== undefined && sqlNames(sql).includes(change.name)
      t.indexes = t.indexes.filter((ix) => !ix.columns.includes(change.name) && !uses(ix.where))
      t.checks = t.checks.filter((c) => !uses(c.check))
      return
    }
    case 'renameColumn': {
      const i = columnIndex(t, change.from, where)
      if (t.columns.some((c) => c.name === change.to))
        throw new Error(`${where}: table "${t.name}" already has a column "${change.to}"`)
      t.columns[i] = { ...t.columns[i]!, name: change.to }
      t.indexes = t.indexes.map((ix) => ({
        ...ix,
        columns: ix.columns.map((c) => (c === change.from ? change.to : c)),
      }))
      followRename(model, t.name, change.from, change.to)
      followRenameComposite(model, t.name, change.from, change.to)
      return
    }
    case 'addForeignKey':
      addForeignKeyTo(model, t, change.foreignKey, where)
      return
    case 'dropForeignKey':
      dropForeignKeyFrom(t, change.columns, where)
      return
    case 'setPrimaryKey': {
      if (change.columns.length === 0 || new Set(change.columns).size !== change.columns.length)
        throw new Error(`${where}: setPrimaryKey on "${t.name}" needs distinct columns`)
      for (const c of change.columns) columnIndex(t, c, where)
      checkPrimaryKeyChange(model, t, where)
      // The key's columns become NOT NULL; those leaving it keep NOT NULL, as in PostgreSQL.
      t.columns = t.columns.map((c) =>
        change.columns.includes(c.name)
          ? { ...c, primaryKey: true, nullable: false }
          : c.primaryKey
            ? { ...c, primaryKey: false }
            : c,
      )
      return
    }
    case 'modifyColumn': {
      const i = columnIndex(t, change.name, where)
      const old = t.columns[i]!
      const { set } = change
      const typed = set.type !== undefined ? resolveColumn({ name: old.name, type: set.type, size: set.size }) : old
      if (set.references === null && !old.references)
        throw new Error(`${where}: column ${t.name}.${old.name} has no foreign key to drop`)
      const column: ResolvedColumn = {
        ...old,
        type: typed.type,
        size: typed.size,
        nullable: old.primaryKey ? false : (set.nullable ?? old.nullable),
        default: set.default === undefined ? old.default : set.default === null ? undefined : set.default,
        references:
          set.references === undefined
            ? old.references
            : set.references === null
              ? undefined
              : resolveReferences(set.references, where),
      }
      checkReference(model, t, column, where)
      t.columns[i] = column
      try {
        // A type change must still suit the foreign keys pointing at this column.
        for (const r of referencing(model, t.name, column.name)) {
          const other = model.get(r.table)!
          checkReference(model, other, other.columns.find((c) => c.name === r.column)!, where)
        }
      } catch (e) {
        t.columns[i] = old
        throw e
      }
      return
    }
  }
}

function findIndex(model: Model, name: string): TableModel | undefined {
  for (const t of model.values()) if (t.indexes.some((ix) => ix.name === name)) return t
  return undefined
}

/** Applies one operation to the model in place. `where` prefixes errors (the migration's file). */
export function applyOperation(model: Model, op: Operation, where: string): void {
  switch (op.op) {
    case 'createTable': {
      if (model.has(op.table)) throw new Error(`${where}: table "${op.table}" already exists`)
      const t: TableModel = { name: op.table, columns: op.columns.map(resolveColumn), indexes: [], checks: [] }
      for (const c of t.columns) checkReference(model, t, c, where)
      for (const fk of op.foreignKeys ?? []) addForeignKeyTo(model, t, fk, where)
      model.set(op.table, t)
      return
    }
    case 'dropTable':
      table(model, op.table, where)
      checkTableDrop(model, op.table, where)
      checkTableDropComposite(model, op.table, where)
      model.delete(op.table)
      return
    case 'alterTable': {
      const t = table(model, op.table, where)
      for (const change of op.changes) applyChange(model, t, change, where)
      return
    }
    case 'createIndex': {
      const t = table(model, op.table, where)
      for (const c of op.columns) columnIndex(t, c, where)
      if (findIndex(model, op.name)) throw new Error(`${where}: an index "${op.name}" already exists`)
      t.indexes.push({
        table: op.table,
        columns: [...op.columns],
        unique: op.unique,
        name: op.name,
        ...(op.where !== undefined ? { where: op.where } : {}),
      })
      return
    }
    case 'dropIndex': {
      const t = table(model, op.table, where)
      if (!t.indexes.some((ix) => ix.name === op.name))
        throw new Error(`${where}: table "${op.table}" has no index "${op.name}"`)
      checkIndexDrop(model, t, op.name, where)
      t.indexes = t.indexes.filter((ix) => ix.name !== op.name)
      return
    }
    case 'addCheck': {
      const t = table(model, op.table, where)
      if (t.checks.some((c) => c.name === op.name))
        throw new Error(`${where}: table "${op.table}" already has a check "${op.name}"`)
      t.checks.push({ table: op.table, name: op.name, check: op.check })
      return
    }
    case 'dropCheck': {
      const t = table(model, op.table, where)
      if (!t.checks.some((c) => c.name === op.name))
        throw new Error(`${where}: table "${op.table}" has no check "${op.name}"`)
      t.checks = t.checks.filter((c) => c.name !== op.name)
      return
    }
    case 'validateCheck': {
      // Validating changes which rows PostgreSQL has read, not what the table declares.
      if (!table(model, op.table, where).checks.some((c) => c.name === op.name))
        throw new Error(`${where}: table "${op.table}" has no check "${op.name}" to validate`)
      return
    }
    case 'execute':
      // Raw SQL is opaque to the model by design; see `execute` in operations.ts.
      return
  }
}

export function cloneModel(model: Model): Model {
  return new Map(
    [...model].map(([name, t]) => [
      name,
      {
        name,
        columns: [...t.columns],
        indexes: [...t.indexes],
        checks: [...t.checks],
        ...(t.foreignKeys ? { foreignKeys: [...t.foreignKeys] } : {}),
      },
    ]),
  )
}

/** The model after every migration's `up()`, in version order. */
export function modelFromMigrations(migrations: readonly Migration[]): Model {
  const model: Model = new Map()
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const where = `migration ${m.file ?? `m${m.version}_${m.name}`}`
    for (const op of m.up()) applyOperation(model, op, where)
  }
  return model
}

/**
 * The model the schemas ask for. Function defaults are cast-time only and have no column default.
 * A `belongsTo` makes its foreign key column reference the related table's primary key; one that
 * cannot (no such field, or a related table no schema here uses) adds no foreign key and a warning.
 * A `manyToMany` adds its join table (join-tables.ts).
 */
export function modelFromSchemas(given: readonly AnySchema[], warnings: string[] = []): Model {
  const model: Model = new Map()
  // An audited schema brings the audit table its writes record into (audit/entry.ts).
  const schemas = withAuditTable(given)
  for (const s of schemas) {
    if (model.has(s.table)) throw new Error(`two schemas use the table "${s.table}"`)
    if (s.embedded)
      throw new Error(
        `schema ${s.table} is embedded: it has no table of its own (its records live in a parent's jsonb field)`,
      )
    // Virtual fields are never stored: no column.
    const columns = s.fields
      .filter((f) => !f.virtual)
      .map((f) =>
        resolveColumn({
          name: f.column,
          type: f.type,
          primaryKey: f.primaryKey,
          nullable: f.nullable,
          default: typeof f.default === 'function' ? undefined : f.default,
          size: f.size,
        }),
      )
    const indexes = s.indexes.map((ix) => ({
      table: s.table,
      columns: ix.columns.map((c) => columnOf(s, c)),
      unique: ix.unique,
      name: ix.name,
      ...(ix.where !== undefined ? { where: ix.where } : {}),
    }))
    const checks = s.checks.map((c) => ({ table: s.table, name: c.name, check: c.check }))
    model.set(s.table, { name: s.table, columns, indexes, checks })
  }
  for (const s of schemas) addBelongsTo(model, s, warnings)
  addJoinTables(model, schemas, warnings)
  return model
}

function addBelongsTo(model: Model, s: AnySchema, warnings: string[]): void {
  const t = model.get(s.table)!
  for (const [name, a] of Object.entries(s.associations)) {
    if (a.kind !== 'belongsTo') continue
    let assoc
    try {
      assoc = resolveAssoc(s, name)
    } catch (e) {
      warnings.push(`${(e as Error).message}; no foreign key is generated for it`)
      continue
    }
    const { related } = assoc
    // The foreign key is a field of this schema; the model names its column.
    const foreignKey = columnOf(s, assoc.foreignKey)
    if (!model.has(related.table)) {
      warnings.push(
        `association ${s.table}.${name}: no schema given uses the table "${related.table}"; no foreign key is generated for ${s.table}.${foreignKey}`,
      )
      continue
    }
    if (assoc.foreignKeys.length > 1) {
      addCompositeBelongsTo(model, t, assoc, a, warnings)
      continue
    }
    const i = t.columns.findIndex((c) => c.name === foreignKey)
    const refs = resolveReferences(
      {
        table: related.table,
        column: columnOf(related, related.primaryKey),
        onDelete: a.onDelete,
        onUpdate: a.onUpdate,
      },
      `association ${s.table}.${name}`,
    )
    const existing = t.columns[i]!.references
    if (existing && !sameReferences(existing, refs)) {
      throw new Error(
        `schema ${s.table}: two belongsTo associations use the column "${foreignKey}" with different references`,
      )
    }
    if (refs.onDelete === 'set_null' && !t.columns[i]!.nullable) {
      warnings.push(
        `association ${s.table}.${name}: onDelete set_null on the NOT NULL column ${s.table}.${foreignKey}; deleting a referenced ${related.table} row will fail`,
      )
    }
    t.columns[i] = { ...t.columns[i]!, references: refs }
    // The related schema object may not be the one given for its table (its key may differ).
    checkReference(model, t, t.columns[i]!, `schema ${s.table}, association ${name}`)
  }
}

/** A belongsTo over a composite key: a table-level `FOREIGN KEY (a, b) REFERENCES t (a, b)`, in columns. */
function addCompositeBelongsTo(
  model: Model,
  t: TableModel,
  assoc: ResolvedAssoc,
  rules: { readonly onDelete?: OnDelete; readonly onUpdate?: OnUpdate },
  warnings: string[],
): void {
  const where = `schema ${t.name}, association ${assoc.name}`
  const columns = assoc.foreignKeys.map((f) => columnOf(assoc.owner, f))
  const { onDelete, onUpdate } = rules
  const fk = {
    columns,
    references: {
      table: assoc.related.table,
      columns: assoc.keys.map((k) => columnOf(assoc.related, k)),
      ...(onDelete ? { onDelete } : {}),
      ...(onUpdate ? { onUpdate } : {}),
    },
  }
  const key = columns.join('\0')
  const existing = (t.foreignKeys ?? []).find((x) => x.columns.join('\0') === key)
  if (existing) {
    if (!sameForeignKey(existing, resolveForeignKey(fk, where)))
      throw new Error(
        `schema ${t.name}: two belongsTo associations use the columns (${columns.join(', ')}) with different references`,
      )
    return
  }
  if (onDelete === 'set_null' && columns.some((c) => !t.columns.find((x) => x.name === c)?.nullable))
    warnings.push(
      `association ${t.name}.${assoc.name}: onDelete set_null on NOT NULL columns of (${columns.join(', ')}); deleting a referenced ${assoc.related.table} row will fail`,
    )
  addForeignKeyTo(model, t, fk, where)
}

/** `renamedFrom` field options, as `{ 'table.new': 'old' }` (the same shape as the CLI decision), keyed by column. */
export function schemaRenames(schemas: readonly AnySchema[]): Record<string, string> {
  const renames: Record<string, string> = {}
  for (const s of schemas)
    for (const f of s.fields) if (f.renamedFrom && !f.virtual) renames[`${s.table}.${f.column}`] = f.renamedFrom
  return renames
}

/**
 * The renames a field's `column` implies, as `{ 'table.column': 'field name' }`: a field given a
 * `column` of its own was stored under its name until then, so when `current` (the migrations'
 * model) has a column named as the field and none named as its column, and `target` (the
 * schemas') no longer has the field's name, that column is renamed, not dropped and added again.
 * Any other change of `column` is an ordinary rename, told by `renamedFrom`.
 */
export function columnRenames(schemas: readonly AnySchema[], current: Model, target: Model): Record<string, string> {
  const renames: Record<string, string> = {}
  const has = (t: TableModel, column: string) => t.columns.some((c) => c.name === column)
  for (const s of schemas) {
    const before = current.get(s.table)
    const after = target.get(s.table)
    if (s.columnNames === undefined || !before || !after) continue
    for (const f of s.fields) {
      if (f.column === f.name || f.virtual || f.renamedFrom) continue
      if (has(before, f.name) && !has(before, f.column) && !has(after, f.name))
        renames[`${s.table}.${f.column}`] = f.name
    }
  }
  return renames
}
