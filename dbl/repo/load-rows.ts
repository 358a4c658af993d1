/**
 * Database rows to records: what every read and every write's RETURNING rows pass through. Embedded
 * fields (jsonb) are typed again (each embedded record's fields cast to their types: ISO strings
 * to `Date` for `utc_datetime`, fields missing from an older row null), and each row is remembered
 * as a record of its schema (record-origin.ts), for `repo.reload(record)`.
 *
 * **Choice:** an enum field (or an array of enum values) holding a value its enum does not list
 * throws a `LoadError` naming the table, field, value and allowed values, as Ecto raises when it
 * cannot load an `Ecto.Enum` value: the record's type promises one of the listed values, and a
 * record that broke the promise would fail somewhere far from the cause. Embedded records stay
 * lenient (a value inside one that no longer casts is kept as it is), so a change to an embedded
 * schema never makes the rows holding it unreadable.
 */
import { castEmbedded } from '../cast.ts'
import { LoadError } from '../load-error.ts'
import { markRows } from '../record-origin.ts'
import type { AnySchema } from '../schema.ts'
import { outsideEnum, sqlOf } from '../sql.ts'

/**
 * `rows` as records of `schema`, changed in place. A schema without embedded or enum fields
 * returns the rows untouched, at the cost of one lookup. Throws a `LoadError` for a stored value
 * an enum field does not allow.
 */
export function loadRows<T>(schema: AnySchema, rows: T[]): T[] {
  markRows(schema, rows)
  const { embeds, enums } = sqlOf(schema)
  if (embeds.length === 0 && enums.length === 0) return rows
  for (const row of rows as Record<string, unknown>[]) {
    for (const e of enums) {
      const bad = outsideEnum(e, row[e.name])
      if (bad) throw new LoadError(schema.table, e.name, bad.value, e.values)
    }
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
