/**
 * The JSON Schema of a Standard Schema object (zod, valibot, arktype, …), when the object offers
 * one; Vela depends on none of those libraries, so it asks the object, in this order:
 *
 * 1. `schema['~standard'].jsonSchema.input({ target })` (or `.output` for replies): the Standard
 *    JSON Schema interface, which zod 4.2+, arktype and valibot's `toStandardJsonSchema` implement;
 * 2. a `toJSONSchema()` or `toJsonSchema()` method on the object (arktype, wrappers);
 * 3. a `jsonSchema` property holding the JSON Schema (set it yourself for any other library:
 *    `Object.assign(schema, { jsonSchema: z.toJSONSchema(schema) })`).
 *
 * None of them, or a library that throws (a type JSON Schema cannot express): `undefined`, and
 * the document describes that part without a schema.
 */
import type { StandardSchemaV1 } from '../../server/contracts/standard-schema.ts'
import type { JsonSchema, OpenApiVersion } from './schema.ts'

type Converter = (options: { target: string }) => unknown
interface JsonSchemaHooks {
  '~standard'?: { jsonSchema?: { input?: Converter; output?: Converter } }
  toJSONSchema?: () => unknown
  toJsonSchema?: () => unknown
  jsonSchema?: unknown
}

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The JSON Schema `schema` offers for requests (`input`) or replies (`output`), or `undefined`. */
export function standardJsonSchema(
  schema: StandardSchemaV1,
  direction: 'input' | 'output',
  version: OpenApiVersion,
): JsonSchema | undefined {
  const hooks = schema as JsonSchemaHooks
  const target = version === '3.0' ? 'draft-07' : 'draft-2020-12'
  const attempts: (() => unknown)[] = [
    () => hooks['~standard']?.jsonSchema?.[direction]?.({ target }),
    () => hooks.toJSONSchema?.(),
    () => hooks.toJsonSchema?.(),
    () => hooks.jsonSchema,
  ]
  for (const attempt of attempts) {
    try {
      const found = attempt()
      if (isObject(found)) return found
    } catch {
      // The library cannot express this schema in JSON Schema: try the next hook, else none.
    }
  }
  return undefined
}
