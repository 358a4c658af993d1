/**
 * The join tables manyToMany associations ask for, added to the model built from the schemas: two
 * NOT NULL columns, each a foreign key to one side's primary key (ON DELETE `cascade` unless the
 * association says otherwise; ON UPDATE as it says, default `no_action`), a unique index over the pair and an index on its second column.
 *
 * Both schemas may declare the association over the same join table: the table is made once, and
 * the two declarations must agree. The columns are in name order whichever side declares it, so
 * the model (and so the generated migration) does not change when the other side starts declaring
 * it too. A join table that a schema of its own describes is left to that schema.
 */
import type { AnySchema, FieldType } from '../schema.ts'
import { joinThroughOf } from '../schema.ts'
import { columnOf } from '../column-names.ts'
import { resolveColumn, resolveReferences, sameReferences, type ResolvedColumn } from './columns.ts'
import { checkReference } from './foreign-keys.ts'
import type { Model, TableModel } from './table-model.ts'

/** A key column has its referenced key's type; an `id` (BIGSERIAL) is referenced by an integer, like a belongsTo column. */
function keyType(schema: AnySchema): { type: FieldType; size: number | undefined } {
  const f = schema.fieldsByName[schema.primaryKey]!
  return { type: f.type === 'id' ? 'integer' : f.type, size: f.size }
}

function sameTable(a: TableModel, b: TableModel): boolean {
  const col = (c: ResolvedColumn) => JSON.stringify([c.name, c.type, c.size, c.nullable])
  return (
    a.columns.length === b.columns.length &&
    a.columns.every(
      (c, i) => col(c) === col(b.columns[i]!) && sameReferences(c.references, b.columns[i]!.references),
    ) &&
    JSON.stringify(a.indexes) === JSON.stringify(b.indexes)
  )
}

/** Adds the join table of every manyToMany association of `schemas` to `model` (which holds the schemas' own tables). */
export function addJoinTables(model: Model, schemas: readonly AnySchema[], warnings: string[]): void {
  const own = new Set(schemas.map((s) => s.table))
  for (const s of schemas) {
    for (const [name, a] of Object.entries(s.associations)) {
      if (a.kind !== 'manyToMany') continue
      const t = joinThroughOf(s, name)
      const where = `association ${s.table}.${name}`
      if (own.has(t.table)) continue
      if (!model.has(t.related.table)) {
        warnings.push(
          `${where}: no schema given uses the table "${t.related.table}"; the join table "${t.table}" is not generated`,
        )
        continue
      }
      const key = (column: string, side: AnySchema): ResolvedColumn => ({
        ...resolveColumn({ name: column, ...keyType(side), nullable: false }),
        references: resolveReferences(
          { table: side.table, column: columnOf(side, side.primaryKey), onDelete: t.onDelete, onUpdate: t.onUpdate },
          where,
        ),
      })
      const columns = [key(t.ownerKey, s), key(t.relatedKey, t.related)].sort((x, y) => (x.name < y.name ? -1 : 1))
      const [first, second] = columns.map((c) => c.name) as [string, string]
      const table: TableModel = {
        name: t.table,
        columns,
        indexes: [
          { table: t.table, columns: [first, second], unique: true, name: `${t.table}_${first}_${second}_index` },
          { table: t.table, columns: [second], unique: false, name: `${t.table}_${second}_index` },
        ],
        checks: [],
      }
      for (const ix of table.indexes) {
        if (Buffer.byteLength(ix.name) > 63)
          throw new Error(
            `${where}: the join table's index name "${ix.name}" is longer than 63 bytes; shorten joinThrough or joinKeys`,
          )
      }
      const existing = model.get(t.table)
      if (existing && !sameTable(existing, table)) {
        throw new Error(
          `${where}: the join table "${t.table}" is declared by another manyToMany association with other columns, references or onDelete; make the two declarations agree`,
        )
      }
      // The related schema object may not be the one given for its table (its key may differ).
      for (const c of columns) checkReference(model, table, c, `schema ${s.table}, ${where}`)
      model.set(t.table, table)
    }
  }
}
