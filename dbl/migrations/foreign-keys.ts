/**
 * Foreign keys in the model: the checks replay makes so that a migration PostgreSQL would refuse
 * (a reference to a table not created yet, dropping a table or column something still references)
 * fails at replay — when the generator runs — with the place named, rather than at migrate time.
 */
import { fkeyName, storedType, typeLabel, type ResolvedColumn } from './columns.ts'
import type { FieldType } from '../schema.ts'
import type { Model, TableModel } from './table-model.ts'

export interface ColumnRef {
  readonly table: string
  readonly column: string
}

/** Columns of the model whose foreign key points at `table` (and `column`, when given). */
export function referencing(model: Model, table: string, column?: string): ColumnRef[] {
  const found: ColumnRef[] = []
  for (const t of model.values()) {
    for (const c of t.columns) {
      if (c.references?.table === table && (column === undefined || c.references.column === column))
        found.push({ table: t.name, column: c.name })
    }
  }
  return found
}

const list = (refs: readonly ColumnRef[]) => refs.map((r) => `${r.table}.${r.column}`).join(', ')

/**
 * PostgreSQL accepts a foreign key only to a column that is unique on its own: a one-column
 * primary key or a one-column unique index over every row (a partial one does not count). `self` is the table the column belongs to, which may
 * not be in the model yet (createTable) and may be the referenced table (a self reference).
 */
export function checkReference(model: Model, self: TableModel, column: ResolvedColumn, where: string): void {
  const refs = column.references
  if (!refs) return
  const target = refs.table === self.name ? self : model.get(refs.table)
  const at = `${where}: ${self.name}.${column.name} references ${refs.table}.${refs.column}`
  const name = fkeyName(self.name, column.name)
  // Refused here rather than by the DDL compiler at migrate time (PostgreSQL would truncate it).
  if (Buffer.byteLength(name) > 63)
    throw new Error(
      `${at}, but its constraint name "${name}" is longer than 63 bytes; shorten the table or column name`,
    )
  if (!target)
    throw new Error(`${at}, but table "${refs.table}" does not exist at this point of the migrations (create it first)`)
  const referenced = target.columns.find((c) => c.name === refs.column)
  if (!referenced) throw new Error(`${at}, but table "${refs.table}" has no column "${refs.column}"`)
  if (family(column.type) !== family(referenced.type)) {
    throw new Error(
      `${at}, but ${typeLabel(column.type)} and ${typeLabel(referenced.type)} cannot be compared (give ${self.name}.${column.name} the type of ${refs.table}.${refs.column})`,
    )
  }
  if (!isUniqueColumn(target, refs.column)) {
    throw new Error(`${at}, which is neither its table's one-column primary key nor unique on its own`)
  }
}

/** Types PostgreSQL compares without a cast: an integer column may reference a BIGSERIAL id, a VARCHAR a text. */
function family(type: FieldType): string {
  const t = storedType(type)
  if (t === 'id' || t === 'integer') return 'integer'
  if (t === 'string' || t === 'text') return 'text'
  return typeLabel(t)
}

export function isUniqueColumn(t: TableModel, column: string): boolean {
  const keys = t.columns.filter((c) => c.primaryKey)
  if (keys.length === 1 && keys[0]!.name === column) return true
  return t.indexes.some(
    (ix) => ix.unique && ix.where === undefined && ix.columns.length === 1 && ix.columns[0] === column,
  )
}

/** Refuses dropping a table other tables still reference (its own self references go with it). */
export function checkTableDrop(model: Model, table: string, where: string): void {
  const others = referencing(model, table).filter((r) => r.table !== table)
  if (others.length > 0) {
    throw new Error(
      `${where}: table "${table}" is still referenced by ${list(others)}; drop those columns or their references (or those tables) first`,
    )
  }
}

/** Refuses dropping a column a foreign key points at, or the unique index a foreign key relies on. */
export function checkColumnDrop(model: Model, table: string, column: string, where: string): void {
  const refs = referencing(model, table, column).filter((r) => !(r.table === table && r.column === column))
  if (refs.length > 0)
    throw new Error(
      `${where}: column ${table}.${column} is still referenced by ${list(refs)}; drop those references first`,
    )
}

export function checkIndexDrop(model: Model, t: TableModel, name: string, where: string): void {
  const ix = t.indexes.find((i) => i.name === name)
  if (!ix?.unique || ix.where !== undefined || ix.columns.length !== 1) return
  const column = ix.columns[0]!
  const rest = { ...t, indexes: t.indexes.filter((i) => i !== ix) }
  const refs = referencing(model, t.name, column)
  if (refs.length > 0 && !isUniqueColumn(rest, column)) {
    throw new Error(
      `${where}: index "${name}" keeps ${t.name}.${column} unique for the foreign keys of ${list(refs)}; drop those references first`,
    )
  }
}

/** After `table.from` is renamed to `to`: foreign keys pointing at it follow, as in PostgreSQL. */
export function followRename(model: Model, table: string, from: string, to: string): void {
  for (const t of model.values()) {
    t.columns = t.columns.map((c) =>
      c.references?.table === table && c.references.column === from
        ? { ...c, references: { ...c.references, column: to } }
        : c,
    )
  }
}
