/**
 * Fields stored under another column name (`column` in a field's options). Records, changesets and
 * queries name fields; the statements name columns. A schema whose columns are all named as its
 * fields has no `columnNames` map, so each lookup here is one check and the field name comes back.
 */
import type { AnySchema } from './schema.ts'

/** The column field `name` of `schema` is stored in: its `column` option, else its name. */
export function columnOf(schema: AnySchema, name: string): string {
  const map = schema.columnNames
  return map === undefined ? name : (map[name] ?? name)
}

/** The field stored in `column` (database errors name columns), or undefined when none is. */
export function fieldOfColumn(schema: AnySchema, column: string): string | undefined {
  if (schema.columnNames === undefined) return schema.fieldsByName[column] ? column : undefined
  return schema.fields.find((f) => f.column === column && !f.virtual)?.name
}

/** `row` with its field-name keys turned into column names (for knex's insert and update data). */
export function byColumn<V>(schema: AnySchema, row: Readonly<Record<string, V>>): Record<string, V> {
  if (schema.columnNames === undefined) return row as Record<string, V>
  const out: Record<string, V> = {}
  for (const k in row) out[columnOf(schema, k)] = row[k]!
  return out
}

/** Field names turned into column names (for knex's `onConflict`, `merge` and `where`). */
export function columnsOf(schema: AnySchema, names: readonly string[]): string[] {
  return schema.columnNames === undefined ? [...names] : names.map((n) => columnOf(schema, n))
}

/**
 * A select or RETURNING entry in knex's syntax that reads field `name` back under its own name:
 * `post_title as title` when it is stored in another column, else the name; `prefix` qualifies it.
 */
export function selectAs(schema: AnySchema, name: string, prefix = ''): string {
  const column = columnOf(schema, name)
  return column === name ? `${prefix}${name}` : `${prefix}${column} as ${name}`
}
