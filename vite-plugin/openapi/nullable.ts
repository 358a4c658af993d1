/**
 * Null in an OpenAPI 3.0.3 schema. 3.0 has no `null` type, only `nullable: true` beside a `type`
 * (a `nullable` without a `type` is an error for linters such as redocly), so:
 *
 * - `type: 'null'` alone becomes `{ type: 'object', nullable: true, enum: [null] }`: null and
 *   nothing else;
 * - a choice with a null branch (`anyOf: [{ type: 'integer' }, { type: 'null' }]`, as zod's
 *   `.nullable()` writes it) becomes the other branch with `nullable: true` (and `null` added to
 *   its `enum`, if it has one); several other branches each get `nullable: true`;
 * - a `$ref` branch becomes `{ allOf: [{ $ref }], type, nullable: true }` when the referenced
 *   schema's type is known, else the choice keeps the `$ref` and the null-only branch.
 */
import type { JsonSchema } from './json-schema.ts'

/** The `type` of the schema a `$ref` points at, when known. */
export type RefType = (ref: string) => string | undefined

/** The 3.0 form of a schema accepting null only. */
export const NULL_ONLY: Readonly<JsonSchema> = { type: 'object', nullable: true, enum: [null] }

/** Does the (converted) schema accept null and nothing else? */
const isNullOnly = (schema: unknown): boolean => {
  const s = schema as JsonSchema
  return s?.nullable === true && Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null
}

// Keywords that describe a schema without constraining it: the outer one's win when merging.
const ANNOTATIONS = new Set(['title', 'description', 'default', 'example', 'readOnly', 'writeOnly', 'deprecated'])

/** `branch` accepting null too, as one schema or, when 3.0 cannot say so in one, two. */
function withNull(branch: JsonSchema, refType: RefType): JsonSchema[] {
  if (typeof branch.type === 'string') {
    const out: JsonSchema = { ...branch, nullable: true }
    if (Array.isArray(branch.enum) && !branch.enum.includes(null)) out.enum = [...branch.enum, null]
    return [out]
  }
  if (typeof branch.$ref === 'string') {
    const type = refType(branch.$ref)
    return type ? [{ allOf: [branch], type, nullable: true }] : [branch, { ...NULL_ONLY }]
  }
  // `{}` accepts null already; anything else keeps a branch of its own for null.
  return Object.keys(branch).length === 0 ? [branch] : [branch, { ...NULL_ONLY }]
}

/** JSON type names of enum values, for an `enum` without a `type`. */
const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value

/** `node` (converted for 3.0, its children already) with every null expressed as `nullable` beside a `type`. */
export function nullable30(node: JsonSchema, refType: RefType): JsonSchema {
  let out = node
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key]
    if (!Array.isArray(branches)) continue
    const others = (branches as JsonSchema[]).filter((b) => !isNullOnly(b))
    if (others.length === branches.length || others.length === 0) continue
    const { [key]: _choice, ...rest } = out
    const expanded = others.flatMap((b) => withNull(b, refType))
    const single = expanded.length === 1 ? expanded[0]! : undefined
    const clash = single && Object.keys(single).some((k) => Object.hasOwn(rest, k) && !ANNOTATIONS.has(k))
    out = single && !clash ? { ...single, ...rest } : { ...rest, [key]: expanded }
  }
  if (out.nullable === true && out.type === undefined && Array.isArray(out.enum)) {
    const types = new Set((out.enum as unknown[]).filter((v) => v !== null).map(jsonType))
    out = { ...out, type: types.size === 1 ? [...types][0] : 'object' }
    if (types.size > 1) {
      // Values of several types: one typed branch each, null allowed in each.
      const { enum: values, type: _t, nullable: _n, ...rest } = out
      const byType = [...types].map((type) => ({
        type,
        nullable: true,
        enum: [...(values as unknown[]).filter((v) => v !== null && jsonType(v) === type), null],
      }))
      out = { ...rest, anyOf: byType }
    }
  }
  return out
}
