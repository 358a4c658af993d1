/**
 * JSON Schema as the OpenAPI document holds it. `priv/schemas/*.json` files are JSON Schema
 * draft-07; an OpenAPI 3.0.3 schema object is a subset with its own keywords, so for 3.0 each
 * schema is converted:
 *
 * - `$schema`, `$id` and `$comment` dropped; `definitions` / `$defs` moved to
 *   `components.schemas` as `<owner>_<name>`, and every `$ref` to them (`#/definitions/x`),
 *   or to another file (`other.json`, `other.json#/definitions/x`), rewritten to the component;
 * - `const: v` → `enum: [v]`; `type: [t, 'null']` → `type: t, nullable: true` (several non-null
 *   types become an `anyOf` of nullable types); an `enum` listing `null` gets `nullable: true`;
 *   `type: 'null'` and choices with a null branch as nullable.ts says;
 * - `examples: [a, …]` → `example: a`; numeric `exclusiveMinimum` / `exclusiveMaximum` →
 *   `minimum` / `maximum` with the boolean flag;
 * - tuple `items: [a, b]` → `items: { anyOf: [a, b] }` with `minItems` (and `maxItems` when
 *   `additionalItems` is false);
 * - `true` / `false` sub-schemas → `{}` / `{ not: {} }`;
 * - keywords 3.0 does not have (`if`/`then`/`else`, `contains`, `propertyNames`,
 *   `dependencies`, `patternProperties`, `additionalItems`, `contentMediaType`,
 *   `contentEncoding`) are dropped: the document is looser there than the server's check.
 *
 * For 3.1 the schema is JSON Schema as is, with only the `$id`/`$schema` removal and the `$ref`
 * rewriting above.
 */
import type { JsonSchema } from './json-schema.ts'
import type { RefType } from './nullable.ts'
import { NULL_ONLY, nullable30 } from './nullable.ts'

export type { JsonSchema }

/** Which OpenAPI version the document is written for. */
export type OpenApiVersion = '3.0' | '3.1'

const DROPPED_30 = new Set([
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'dependencies',
  'patternProperties',
  'additionalItems',
  'contentMediaType',
  'contentEncoding',
  '$comment',
])
const SCHEMA_MAP_KEYS = ['properties']
const SCHEMA_KEYS = ['additionalProperties', 'not', 'items']
const SCHEMA_LIST_KEYS = ['allOf', 'anyOf', 'oneOf']

/** Where hoisted `definitions` go: `components.schemas`. */
export type ComponentSink = (name: string, schema: JsonSchema) => void

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** Component names allow letters, digits, `.`, `-`, `_`. */
export const componentName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_')

/**
 * `schema` converted for `version`, its `definitions` sent to `sink` as `<owner>_<name>` (`owner`
 * is the file name, or a name made for an inline schema).
 */
export function toOpenApiSchema(
  schema: unknown,
  version: OpenApiVersion,
  owner: string,
  sink: ComponentSink,
  refType: RefType = () => undefined,
): JsonSchema {
  const convert = (node: unknown): JsonSchema => {
    if (node === true) return {}
    if (node === false) return { not: {} }
    if (!node || typeof node !== 'object' || Array.isArray(node)) return {}
    const out: JsonSchema = {}
    for (const [key, value] of Object.entries(node as JsonSchema)) {
      if (key === '$schema' || key === '$id') continue
      if (key === 'definitions' || key === '$defs') {
        for (const [def, sub] of Object.entries((value as JsonSchema) ?? {}))
          sink(componentName(`${owner}_${def}`), convert(sub))
        continue
      }
      if (key === '$ref' && typeof value === 'string') out.$ref = rewriteRef(value, owner)
      else if (SCHEMA_MAP_KEYS.includes(key) && value && typeof value === 'object')
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]))
      else if (SCHEMA_LIST_KEYS.includes(key) && Array.isArray(value)) out[key] = value.map(convert)
      else if (
        SCHEMA_KEYS.includes(key) &&
        !(key === 'additionalProperties' && typeof value === 'boolean') &&
        !(key === 'items' && Array.isArray(value))
      )
        out[key] = convert(value)
      else if (key === 'items' && Array.isArray(value)) out[key] = value.map(convert)
      else out[key] = value
    }
    return version === '3.0' ? downgrade(out, refType) : out
  }
  return convert(schema)
}

/** `#/definitions/x` (or `$defs`) → the owner's component; `other.json[#/definitions/x]` → other's. */
function rewriteRef(ref: string, owner: string): string {
  const local = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(ref)
  if (local) return componentRef(componentName(`${owner}_${decodeURIComponent(local[1]!)}`)).$ref
  if (ref === '#') return componentRef(owner).$ref
  const file = /^(?:\.\/)?([A-Za-z0-9._-]+)\.json(?:#(?:\/(?:definitions|\$defs)\/([^/]+))?)?$/.exec(ref)
  if (file) return componentRef(componentName(file[2] ? `${file[1]}_${decodeURIComponent(file[2])}` : file[1]!)).$ref
  return ref
}

/** One converted node's own keywords, draft-07 → OpenAPI 3.0.3 (children are converted already). */
function downgrade(node: JsonSchema, refType: RefType): JsonSchema {
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) if (!DROPPED_30.has(key)) out[key] = value
  if ('const' in out) {
    out.enum = [out.const]
    delete out.const
  }
  if (Array.isArray(out.examples)) {
    if (out.examples.length && !('example' in out)) out.example = out.examples[0]
    delete out.examples
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'number') {
      out[bound] = out[exclusive]
      out[exclusive] = true
    }
  }
  if (Array.isArray(out.items)) {
    const tuple = out.items as JsonSchema[]
    const distinct = tuple.filter(
      (item, i) => tuple.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i,
    )
    out.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct }
    out.minItems ??= tuple.length
    if ((node as JsonSchema).additionalItems === false) out.maxItems ??= tuple.length
  }
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== 'null')
    const withNull = types.length < out.type.length
    if (types.length === 1) {
      out.type = types[0]
      if (withNull) out.nullable = true
    } else {
      delete out.type
      if (types.length > 1) out.anyOf = types.map((type) => (withNull ? { type, nullable: true } : { type }))
      else Object.assign(out, NULL_ONLY)
    }
  } else if (out.type === 'null') {
    Object.assign(out, NULL_ONLY, Array.isArray(out.enum) ? {} : { enum: [null] })
  }
  if (Array.isArray(out.enum) && out.enum.includes(null)) out.nullable = true
  return nullable30(out, refType)
}

/** The names in `required` that are not read-only (read-only properties are never sent in a request). */
function writableRequired(schema: JsonSchema): string[] | undefined {
  if (!Array.isArray(schema.required)) return undefined
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>
  return (schema.required as string[]).filter((name) => props[name]?.readOnly !== true)
}

/** Does a request body need its own variant of `schema`: a read-only property it requires? */
export const requiresReadOnly = (schema: JsonSchema): boolean =>
  (writableRequired(schema)?.length ?? 0) !== (Array.isArray(schema.required) ? schema.required.length : 0)

/** `schema` as a request body: no read-only property required; `partial`: nothing required (PATCH). */
export function requestVariant(schema: JsonSchema, partial: boolean): JsonSchema {
  const { required: _r, ...rest } = schema
  const required = partial ? [] : (writableRequired(schema) ?? [])
  return required.length ? { ...rest, required } : rest
}
