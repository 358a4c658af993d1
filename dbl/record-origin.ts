/**
 * Which schema each record a repository read or wrote came from, so `repo.reload(record)` needs no
 * schema argument (as an Ecto struct knows its schema). A WeakMap: it holds nothing alive, and
 * a copy of a record (`{ ...record }`) is not in it.
 */
import type { AnySchema } from './schema.ts'

const origin = new WeakMap<object, AnySchema>()

/** Records `schema` as the origin of each row. */
export function markRows(schema: AnySchema, rows: readonly unknown[]): void {
  for (const row of rows) if (typeof row === 'object' && row !== null) origin.set(row, schema)
}

/** The schema a record came from, if a repository read or wrote this very object. */
export function schemaOfRecord(record: unknown): AnySchema | undefined {
  return typeof record === 'object' && record !== null ? origin.get(record) : undefined
}
