/**
 * Foreign keys over several columns in the model (`TableModel.foreignKeys`): the checks replay makes
 * so that a migration PostgreSQL would refuse fails when the generator runs, and how they follow
 * column renames and drops. One-column keys live on their column (foreign-keys.ts).
 */
import {
  fkeyName,
  resolveForeignKey,
  sameForeignKey,
  storedType,
  typeLabel,
  type ResolvedForeignKey,
  type ResolvedReferences,
} from './columns.ts'
import { addForeignKey, dropForeignKey, type ColumnChange, type ForeignKey } from './operations.ts'
import type { Model, TableModel } from './table-model.ts'

/** Types PostgreSQL compares without a cast (as foreign-keys.ts compares one-column keys). */
function family(type: Parameters<typeof storedType>[0]): string {
  const t = storedType(type)
  if (t === 'id' || t === 'integer') return 'integer'
  if (t === 'string' || t === 'text') return 'text'
  return typeLabel(t)
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === a.length && a.every((c) => b.includes(c))

/** PostgreSQL accepts a foreign key only to columns that are, as a set, the primary key or a unique index. */
function uniqueOver(t: TableModel, columns: readonly string[]): boolean {
  const keys = t.columns.filter((c) => c.primaryKey).map((c) => c.name)
  return sameSet(keys, columns) || t.indexes.some((ix) => ix.unique && sameSet(ix.columns, columns))
}

/** Refuses a foreign key PostgreSQL would refuse. `self` may not be in the model yet (createTable). */
export function checkForeignKey(model: Model, self: TableModel, fk: ResolvedForeignKey, where: string): void {
  const at = `${where}: ${self.name} (${fk.columns.join(', ')}) references ${fk.table} (${fk.referencedColumns.join(', ')})`
  const name = fkeyName(self.name, fk.columns)
  if (Buffer.byteLength(name) > 63)
    throw new Error(`${at}, but its constraint name "${name}" is longer than 63 bytes; shorten the names`)
  const target = fk.table === self.name ? self : model.get(fk.table)
  if (!target)
    throw new Error(`${at}, but table "${fk.table}" does not exist at this point of the migrations (create it first)`)
  fk.columns.forEach((c, i) => {
    const own = self.columns.find((x) => x.name === c)
    if (!own) throw new Error(`${at}, but table "${self.name}" has no column "${c}"`)
    const other = target.columns.find((x) => x.name === fk.referencedColumns[i])
    if (!other) throw new Error(`${at}, but table "${fk.table}" has no column "${fk.referencedColumns[i]}"`)
    if (family(own.type) !== family(other.type))
      throw new Error(`${at}, but ${self.name}.${c} and ${fk.table}.${other.name} have types that cannot be compared`)
  })
  if (!uniqueOver(target, fk.referencedColumns))
    throw new Error(`${at}, which are neither its primary key nor a unique index`)
}

/** Adds a resolved foreign key to `t` (checked), refusing a second one over the same columns. */
export function addForeignKeyTo(model: Model, t: TableModel, given: ForeignKey, where: string): void {
  const fk = resolveForeignKey(given, `${where}: table ${t.name}`)
  if ((t.foreignKeys ?? []).some((x) => x.columns.join('\0') === fk.columns.join('\0')))
    throw new Error(`${where}: table "${t.name}" already has a foreign key over (${fk.columns.join(', ')})`)
  checkForeignKey(model, t, fk, where)
  t.foreignKeys = [...(t.foreignKeys ?? []), fk]
}

export function dropForeignKeyFrom(t: TableModel, columns: readonly string[], where: string): void {
  const key = columns.join('\0')
  if (!(t.foreignKeys ?? []).some((x) => x.columns.join('\0') === key))
    throw new Error(`${where}: table "${t.name}" has no foreign key over (${columns.join(', ')})`)
  t.foreignKeys = t.foreignKeys!.filter((x) => x.columns.join('\0') !== key)
}

/** The tables whose multi-column foreign keys point at `table` (and `column`, when given), other than `table` itself. */
function referencingTables(model: Model, table: string, column?: string): string[] {
  const out: string[] = []
  for (const t of model.values()) {
    if (t.name === table) continue
    for (const fk of t.foreignKeys ?? [])
      if (fk.table === table && (column === undefined || fk.referencedColumns.includes(column)))
        out.push(`${t.name} (${fk.columns.join(', ')})`)
  }
  return out
}

/** Refuses dropping a table another table's multi-column foreign key points at. */
export function checkTableDropComposite(model: Model, table: string, where: string): void {
  const refs = referencingTables(model, table)
  if (refs.length > 0)
    throw new Error(
      `${where}: table "${table}" is still referenced by ${refs.join(', ')}; drop those foreign keys first`,
    )
}

/**
 * Dropping a column: refused while another table's key points at it; the table's own keys over it
 * go with it (PostgreSQL drops a table's constraints on a dropped column).
 */
export function dropColumnComposite(model: Model, t: TableModel, column: string, where: string): void {
  const refs = referencingTables(model, t.name, column)
  if (refs.length > 0)
    throw new Error(
      `${where}: column ${t.name}.${column} is still referenced by ${refs.join(', ')}; drop those foreign keys first`,
    )
  if (t.foreignKeys) t.foreignKeys = t.foreignKeys.filter((fk) => !fk.columns.includes(column))
}

/**
 * PostgreSQL refuses to drop a primary key a foreign key relies on (one pointing at exactly the
 * key's columns, with no unique index over them to fall back on): `setPrimaryKey` is refused then.
 */
export function checkPrimaryKeyChange(model: Model, t: TableModel, where: string): void {
  const key = t.columns.filter((c) => c.primaryKey).map((c) => c.name)
  const onIndex = t.indexes.some((ix) => ix.unique && sameSet(ix.columns, key))
  if (key.length === 0 || onIndex) return
  const relying: string[] = []
  for (const other of model.values()) {
    for (const c of other.columns)
      if (c.references?.table === t.name && key.length === 1 && c.references.column === key[0])
        relying.push(`${other.name}.${c.name}`)
    for (const fk of other.foreignKeys ?? [])
      if (fk.table === t.name && sameSet(fk.referencedColumns, key))
        relying.push(`${other.name} (${fk.columns.join(', ')})`)
  }
  if (relying.length > 0)
    throw new Error(
      `${where}: the primary key of ${t.name} (${key.join(', ')}) is still referenced by ${relying.join(', ')}; drop those foreign keys first`,
    )
}

/** After `table.from` is renamed to `to`: the table's own keys and the keys pointing at it follow, as in PostgreSQL. */
export function followRenameComposite(model: Model, table: string, from: string, to: string): void {
  const rename = (cols: readonly string[]) => cols.map((c) => (c === from ? to : c))
  for (const t of model.values()) {
    if (!t.foreignKeys) continue
    t.foreignKeys = t.foreignKeys.map((fk) => ({
      ...fk,
      columns: t.name === table ? rename(fk.columns) : fk.columns,
      referencedColumns: fk.table === table ? rename(fk.referencedColumns) : fk.referencedColumns,
    }))
  }
}

/** A multi-column foreign key as a migration file writes it: `onDelete` only when not the default. */
export function foreignKeyOf(fk: ResolvedForeignKey): ForeignKey {
  return {
    columns: fk.columns,
    references: {
      table: fk.table,
      columns: fk.referencedColumns,
      ...(fk.onDelete !== 'no_action' ? { onDelete: fk.onDelete } : {}),
      ...(fk.onUpdate !== 'no_action' ? { onUpdate: fk.onUpdate } : {}),
    },
  }
}

/**
 * The multi-column foreign keys of a kept table to drop (before any change) and add (after all); one whose
 * definition changed is both. `renamed` are this table's column renames, `follow` other tables'.
 */
export function compositeKeyChanges(
  from: TableModel,
  to: TableModel,
  renamed: ReadonlyMap<string, string>,
  follow: (refs: ResolvedReferences) => ResolvedReferences | undefined,
): { drop: ColumnChange[]; add: ColumnChange[] } {
  const current = (from.foreignKeys ?? []).map((fk) => ({
    ...fk,
    before: fk.columns,
    columns: fk.columns.map((c) => renamed.get(c) ?? c),
    referencedColumns: fk.referencedColumns.map(
      (c) => follow({ table: fk.table, column: c, onDelete: fk.onDelete, onUpdate: fk.onUpdate })!.column,
    ),
  }))
  const wanted = to.foreignKeys ?? []
  // A key over a renamed column is made again: PostgreSQL would keep its old constraint name.
  const kept = current.filter(
    (fk) => fk.before.every((c, i) => c === fk.columns[i]) && wanted.some((w) => sameForeignKey(fk, w)),
  )
  const drop = current.filter((fk) => !kept.includes(fk))
  const add = wanted.filter((w) => !kept.some((fk) => sameForeignKey(fk, w)))
  return {
    // Dropped before the table's renames: under the columns' names (and constraint name) of before.
    drop: drop.map((fk) => dropForeignKey(fk.before)),
    add: add.map((fk) => addForeignKey(foreignKeyOf(fk))),
  }
}
