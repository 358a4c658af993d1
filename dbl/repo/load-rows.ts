/**
 * Database rows to records: what every read and every write's RETURNING rows pass through. Embedded
 * fields (jsonb) are typed again (each embedded record's fields cast to their types: ISO strings
 * to `Date` for `utc_datetime`, fields missing from an older row null), and each row is remembered
 * as a record of its schema (record-origin.ts), for `repo.reload(record)`.
 */
import { castEmbedded } from '../cast.ts'
import { markRows } from '../record-origin.ts'
import type { AnySchema } from '../schema.ts'
import { sqlOf } from '../sql.ts'

/**
 * `rows` as records of `schema`, changed in place. A schema without embedded fields returns the
 * rows untouched, at the cost of one lookup.
 */
export function loadRows<T>(schema: AnySchema, rows: T[]): T[] {
  markRows(schema, rows)
  const embeds = sqlOf(schema).embeds
  if (embeds.length === 0) return rows
  for (const row of rows as Record<string, unknown>[]) {
    for (const f of embeds) {
      const v = row[f.name]
      if (v === null || v === undefined) continue
      const t = f.type as { embedsOne?: AnySchema; embedsMany?: AnySchema }
      if (t.embedsOne) row[f.name] = castEmbedded(t.embedsOne, v, true)
      else if (Array.isArray(v)) row[f.name] = v.map((x) => castEmbedded(t.embedsMany!, x, true))
    }
  }
  return rows
}
