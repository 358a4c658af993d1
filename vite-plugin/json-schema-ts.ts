/**
 * TypeScript type text for a JSON Schema (draft-07), for the route types the plugin generates
 * from `priv/schemas/*.json`.
 *
 * **Choice:** converted as text when the file is generated, not with a type-level converter
 * (`json-schema-to-ts`'s `FromSchema`): the editor then reads plain object types, whose cost does
 * not grow with the schema's depth, and the package needs no extra dependency. The subset covers
 * what routes' schemas use: `type` (one or a list, `null` included), `properties` / `required`,
 * `additionalProperties`, `items` (one schema or a tuple), `enum`, `const`, `anyOf` / `oneOf`
 * (a union), `allOf` (an intersection), and `$ref` through `refs`, which names the type a
 * reference stands for (route-types.ts: another `priv/schemas` file's named type, or a
 * definition's). Anything else (`not`, `if`, a reference `refs` does not know) reads as `unknown`.
 *
 * `direction` is which side of the wire the value is on: `in` (a request) leaves out `readOnly`
 * properties, `out` (a reply) leaves out `writeOnly` ones.
 */
type Schema = { readonly [keyword: string]: unknown }

/** Which side of the wire a value is on. */
export type SchemaDirection = 'in' | 'out'

/** The type a `$ref` stands for (`other.json`, `#/definitions/x`), or `undefined` when unknown. */
export type RefTypes = (ref: string) => string | undefined

const NO_REFS: RefTypes = () => undefined

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name))
const literal = (v: unknown) =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) ? JSON.stringify(v) : 'unknown'
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v)
const union = (parts: string[]) => ([...new Set(parts)].length ? [...new Set(parts)].join(' | ') : 'never')

function objectType(s: Schema, direction: SchemaDirection, refs: RefTypes): string {
  const props = isSchema(s.properties) ? s.properties : {}
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : [])
  const members: string[] = []
  for (const [name, prop] of Object.entries(props)) {
    if (!isSchema(prop)) continue
    if ((direction === 'in' && prop.readOnly === true) || (direction === 'out' && prop.writeOnly === true)) continue
    members.push(`${key(name)}${required.has(name) ? '' : '?'}: ${jsonSchemaToTs(prop, direction, refs)}`)
  }
  const extra = s.additionalProperties
  if (isSchema(extra))
    members.push(`[key: string]: ${Object.keys(props).length ? 'unknown' : jsonSchemaToTs(extra, direction, refs)}`)
  else if (extra !== false && members.length === 0) return 'Record<string, unknown>'
  return `{ ${members.join('; ')} }`
}

function typeNamed(name: unknown, s: Schema, direction: SchemaDirection, refs: RefTypes): string {
  switch (name) {
    case 'string':
      return 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      if (Array.isArray(s.items))
        return `[${s.items.map((i) => (isSchema(i) ? jsonSchemaToTs(i, direction, refs) : 'unknown')).join(', ')}]`
      return `${isSchema(s.items) ? wrap(jsonSchemaToTs(s.items, direction, refs)) : 'unknown'}[]`
    case 'object':
      return objectType(s, direction, refs)
    default:
      return 'unknown'
  }
}

const wrap = (t: string) => (/[|&]/.test(t) && !/^[{[]/.test(t) ? `(${t})` : t)

/**
 * The TypeScript type a JSON Schema describes.
 *
 * @example
 * jsonSchemaToTs({ type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } }, required: ['name'] }, 'in')
 * // '{ name: string }'
 */
export function jsonSchemaToTs(s: Schema | boolean, direction: SchemaDirection, refs: RefTypes = NO_REFS): string {
  if (typeof s === 'boolean') return s ? 'unknown' : 'never'
  // Beside a `$ref`, draft-07 ignores every other keyword.
  if (typeof s.$ref === 'string') return refs(s.$ref) ?? 'unknown'
  if ('const' in s) return literal(s.const)
  if (Array.isArray(s.enum)) return union(s.enum.map(literal))
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined
  if (alternatives)
    return union(alternatives.map((a) => (isSchema(a) ? wrap(jsonSchemaToTs(a, direction, refs)) : 'unknown')))
  if (Array.isArray(s.allOf))
    return (
      s.allOf.map((a) => (isSchema(a) ? wrap(jsonSchemaToTs(a, direction, refs)) : 'unknown')).join(' & ') || 'unknown'
    )
  if (Array.isArray(s.type)) return union(s.type.map((t) => wrap(typeNamed(t, s, direction, refs))))
  if (s.type !== undefined) return typeNamed(s.type, s, direction, refs)
  if (isSchema(s.properties)) return objectType(s, direction, refs)
  return 'unknown'
}
