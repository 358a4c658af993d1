/**
 * Primary keys of one field or several (`primaryKey: ['order_id', 'line_no']`): reading a record's
 * key, and telling two keys apart in memory. A one-field key takes the short path everywhere, so
 * schemas with one key field pay nothing for composite ones.
 */
import { castersOf, INVALID } from './cast.ts'
import type { AnySchema } from './schema.ts'

type Row = Readonly<Record<string, unknown>>

/** Whether the schema's key has several fields. */
export function isCompositeKey(schema: AnySchema): boolean {
  return schema.primaryKeys.length > 1
}

/** The first key field the record lacks (undefined or null), or `undefined` when it has them all. */
export function missingKeyField(schema: AnySchema, record: Row | null | undefined): string | undefined {
  const keys = schema.primaryKeys
  for (let i = 0; i < keys.length; i++) {
    const v = record?.[keys[i]!]
    if (v === undefined || v === null) return keys[i]
  }
  return undefined
}

/**
 * The record's key as users see it: the value for a one-field key, `{ field: value, … }` for a
 * composite one (what `repo.get` takes, and what audit rows record as JSON).
 */
export function keyOf(schema: AnySchema, record: Row): unknown {
  if (schema.primaryKeys.length === 1) return record[schema.primaryKey]
  const key: Record<string, unknown> = {}
  for (const k of schema.primaryKeys) key[k] = record[k]
  return key
}

/**
 * A text equal for equal keys, for grouping rows by key in memory: `String(value)` for one column
 * (as preloads always did), the JSON of the values for several (so `(1, '2')` and `('1', 2)` differ).
 */
export function keyText(row: Row, columns: readonly string[]): string {
  if (columns.length === 1) return String(row[columns[0]!])
  return JSON.stringify(columns.map((c) => row[c]))
}

/** The key's values in key order, cast; `undefined` when one cannot be cast (no row can match). Throws for a key of the wrong shape. */
export function compositeKeyValues(schema: AnySchema, key: unknown, what: string): unknown[] | undefined {
  const keys = schema.primaryKeys
  const expected = `{ ${keys.join(', ')} }`
  if (typeof key !== 'object' || key === null || Array.isArray(key) || key instanceof Date)
    throw new Error(
      `${what} ${schema.table}: its primary key is (${schema.primaryKey}); give an object ${expected}, not ${describe(key)}`,
    )
  const given = key as Record<string, unknown>
  const missing = keys.filter((k) => given[k] === undefined || given[k] === null)
  if (missing.length > 0)
    throw new Error(`${what} ${schema.table}: the key lacks ${missing.join(', ')}; give every key field ${expected}`)
  const extra = Object.keys(given).filter((k) => !keys.includes(k))
  if (extra.length > 0)
    throw new Error(
      `${what} ${schema.table}: ${extra.join(', ')} ${extra.length > 1 ? 'are' : 'is'} not part of the primary key ${expected} (use getBy to match other fields)`,
    )
  const casters = castersOf(schema)
  const values: unknown[] = []
  for (const k of keys) {
    const v = casters[k]!(given[k])
    if (v === INVALID) return undefined
    values.push(v)
  }
  return values
}

function describe(value: unknown): string {
  return value instanceof Date ? 'a Date' : (JSON.stringify(value) ?? String(value))
}
