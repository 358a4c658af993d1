/**
 * JSON Schema (draft-07) from a `vela/dbl` schema: what `vela schemas` writes to
 * `priv/schemas/<name>.json` (the record) and `priv/schemas/<name>_patch.json` (a PATCH body).
 *
 * | field type | JSON Schema |
 * |---|---|
 * | `id`, `integer` | `integer` |
 * | `float` | `number` |
 * | `string` | `string` with `maxLength` (its size, default 255) |
 * | `text` | `string` |
 * | `boolean` | `boolean` |
 * | `utc_datetime` / `date` / `uuid` | `string` with format `date-time` / `date` / `uuid` |
 * | `jsonb` | any value (`{}`) |
 * | `{ array: T }` | `array` of T |
 * | `{ enum: [...] }` | `string` with those values |
 * | `embedsOne(S)` / `embedsMany(S)` | S as a nested object / an array of them |
 *
 * A nullable field also accepts `null` (draft-07 `type: [T, "null"]`). Fields the database or the
 * repository fills in (the primary key, `inserted_at`, `updated_at`) are `readOnly` and never
 * required. Virtual fields (a password confirmation) are accepted but never returned: `writeOnly`.
 * `required` lists the other non-null fields without a default. The patch variant has the same
 * properties less the read-only ones, and requires nothing.
 */
import type { AnySchema, Field, FieldType } from '../dbl/schema.ts'
import { singularize } from '../dbl/inflect.ts'

/** A JSON Schema object (the draft-07 subset these files use). */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** Fields the repository sets itself. */
const TIMESTAMPS = new Set(['inserted_at', 'updated_at'])

/** `products` → `product`: the file name of a table's schema (the OpenAPI convention's name too). */
export function jsonSchemaName(schema: AnySchema): string {
  return singularize(schema.table) ?? schema.table
}

/** `line_item` → `LineItem`. */
export const pascalCase = (snake: string) =>
  snake
    .split(/[_\W]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')

const isReadOnly = (schema: AnySchema, f: Field) =>
  f.primaryKey || f.name === schema.primaryKey || (TIMESTAMPS.has(f.name) && f.type === 'utc_datetime')

function typeSchema(type: FieldType, size: number | undefined): Record<string, unknown> {
  if (typeof type === 'object') {
    if ('array' in type) return { type: 'array', items: typeSchema(type.array, undefined) }
    if ('enum' in type) return { type: 'string', enum: [...type.enum] }
    if ('embedsOne' in type) return objectSchema(type.embedsOne, 'full')
    return { type: 'array', items: objectSchema(type.embedsMany, 'full') }
  }
  switch (type) {
    case 'id':
    case 'integer':
      return { type: 'integer' }
    case 'float':
      return { type: 'number' }
    case 'string':
      return { type: 'string', maxLength: size ?? 255 }
    case 'text':
      return { type: 'string' }
    case 'boolean':
      return { type: 'boolean' }
    case 'utc_datetime':
      return { type: 'string', format: 'date-time' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'uuid':
      return { type: 'string', format: 'uuid' }
    case 'jsonb':
      return {}
  }
}

function withNull(s: Record<string, unknown>): Record<string, unknown> {
  if (s.type === undefined) return s
  const out: Record<string, unknown> = { ...s, type: [s.type, 'null'] }
  if (Array.isArray(s.enum)) out.enum = [...s.enum, null]
  return out
}

function fieldSchema(schema: AnySchema, f: Field): Record<string, unknown> {
  const base = typeSchema(f.type, f.size)
  const s = f.nullable ? withNull(base) : base
  if (isReadOnly(schema, f)) return { ...s, readOnly: true }
  if (f.virtual) return { ...s, writeOnly: true }
  return s
}

function objectSchema(schema: AnySchema, variant: 'full' | 'patch'): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const f of schema.fields) {
    const readOnly = isReadOnly(schema, f)
    if (variant === 'patch' && readOnly) continue
    properties[f.name] = fieldSchema(schema, f)
    if (variant === 'full' && !readOnly && !f.virtual && !f.nullable && f.default === undefined) required.push(f.name)
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) }
}

/**
 * The JSON Schema of a schema's records (`full`) or of a PATCH body (`patch`: no read-only
 * fields, nothing required), with `$schema` and a title (`Product`, `ProductPatch`).
 *
 * @example
 * toJsonSchema(Product, 'patch')
 * // { $schema: 'http://json-schema.org/draft-07/schema#', title: 'ProductPatch', type: 'object', properties: { name: …, price: … } }
 */
export function toJsonSchema(schema: AnySchema, variant: 'full' | 'patch' = 'full'): JsonSchema {
  const title = pascalCase(jsonSchemaName(schema)) + (variant === 'patch' ? 'Patch' : '')
  return { $schema: 'http://json-schema.org/draft-07/schema#', title, ...objectSchema(schema, variant) }
}
