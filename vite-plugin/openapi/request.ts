/**
 * What an operation accepts: its parameters and its request body.
 *
 * - Parameters: one per property of `validate.query` (`in: query`), `validate.params` (`in:
 *   path`) and `validate.headers` (`in: header`), each with its schema and `required` from the
 *   schema's `required` list (path parameters are always required). Path parameters the params
 *   schema does not describe, or every one without a params schema, are strings. `Accept`,
 *   `Content-Type` and `Authorization` are left out of the header parameters: OpenAPI describes
 *   them elsewhere (content types, security schemes). A schema that is not an object with
 *   `properties` (or a Standard Schema object without a JSON Schema) documents no parameter.
 * - Request body: `validate.body`, else the route's schema by convention on POST create routes,
 *   PUT and PATCH; a POST, PUT or PATCH whose request plugin decodes bodies has one without a
 *   schema when there is none. PATCH gets the partial variant (nothing required), and read-only properties
 *   are not required in any request. Its media types are those the route's request plugin decodes
 *   (`json` → `application/json`, `urlencoded` → `application/x-www-form-urlencoded`),
 *   `application/json` without one.
 */
import type { RequestPluginOptions } from '../../server/plugins/request.ts'
import type { CompiledRoute } from '../../server/router/compile.ts'
import type { DocContext, ResolvedSchema } from './context.ts'
import type { JsonSchema } from './schema.ts'
import { componentName, componentRef } from './schema.ts'

export interface Parameter {
  name: string
  in: 'query' | 'path' | 'header'
  required: boolean
  schema: JsonSchema
  description?: string
}

const BODY_METHODS = new Set(['post', 'put', 'patch'])
const DESCRIBED_ELSEWHERE = new Set(['accept', 'content-type', 'authorization'])

/** The object schema's own properties and required names, following one `$ref` to a component. */
function propertiesOf(
  resolved: ResolvedSchema | undefined,
  owner: string,
): { properties: Record<string, unknown>; required: string[]; owner: string } | undefined {
  const source = resolved?.source
  if (!source || typeof source.properties !== 'object' || source.properties === null) return undefined
  // A file's `#/definitions/x` references point at that file's components.
  return {
    properties: source.properties as Record<string, unknown>,
    required: Array.isArray(source.required) ? (source.required as string[]) : [],
    owner: resolved!.name ?? owner,
  }
}

export function parametersFor(
  route: CompiledRoute,
  pathParams: readonly string[],
  ctx: DocContext,
  owner: string,
): Parameter[] {
  const validate = route.options.validate ?? {}
  const label = (part: string) => `route ${route.path}: validate.${part}`
  const read = (part: 'query' | 'params' | 'headers') => {
    const ref = validate[part]
    return ref === undefined
      ? undefined
      : propertiesOf(ctx.resolve(ref, 'input', { label: label(part), owner: `${owner}_${part}` }), `${owner}_${part}`)
  }
  const out: Parameter[] = []
  const convert = (schema: unknown, from: string) => ctx.convert((schema ?? {}) as JsonSchema, from)
  const described = (schema: JsonSchema) =>
    typeof schema.description === 'string' ? { description: schema.description } : {}
  const params = read('params')
  for (const name of pathParams) {
    const schema =
      params && Object.hasOwn(params.properties, name)
        ? convert(params.properties[name], params.owner)
        : { type: 'string' }
    out.push({ name, in: 'path', required: true, schema, ...described(schema) })
  }
  for (const [part, where] of [
    ['query', 'query'],
    ['headers', 'header'],
  ] as const) {
    const found = read(part)
    for (const [name, sub] of Object.entries(found?.properties ?? {})) {
      if (where === 'header' && DESCRIBED_ELSEWHERE.has(name.toLowerCase())) continue
      const schema = convert(sub, found!.owner)
      out.push({ name, in: where, required: found!.required.includes(name), schema, ...described(schema) })
    }
  }
  return out
}

/** The media types a route's body may have, by the request plugin running for it. */
function bodyMediaTypes(route: CompiledRoute): string[] {
  const types = new Set<string>()
  for (const step of route.group.pre) {
    if (step.plugin.name !== 'request') continue
    // The older option names still count (requestPlugin reads them the same way).
    const options = step.options as RequestPluginOptions
    if (options.json ?? options.decodeJsonBody) types.add('application/json')
    if (options.urlencoded ?? options.readUrlencodedBody) types.add('application/x-www-form-urlencoded')
  }
  return types.size ? [...types] : ['application/json']
}

/** Does a request plugin run for the route (it answers 415 for a body it cannot decode)? */
export const decodesBodies = (route: CompiledRoute): boolean => route.group.pre.some((s) => s.plugin.name === 'request')

/** The request body of `method` on `route`, or `undefined`; `schema` is the route's schema by convention. */
export function requestBodyFor(
  route: CompiledRoute,
  method: string,
  conventional: boolean,
  schema: string | undefined,
  ctx: DocContext,
  owner: string,
): { required: boolean; content: Record<string, { schema?: JsonSchema }> } | undefined {
  const ref = route.options.validate?.body
  let body: JsonSchema | undefined
  if (ref !== undefined) {
    const resolved = ctx.resolve(ref, 'input', { label: `route ${route.path}: validate.body`, owner: `${owner}_body` })
    body = resolved && ctx.requestBody(resolved, method)
  } else if (conventional && schema) {
    body = ctx.requestBody(
      { schema: componentRef(componentName(schema)), source: ctx.schemas[schema]!, name: schema },
      method,
    )
  } else if (!(BODY_METHODS.has(method) && decodesBodies(route))) return undefined
  return {
    required: true,
    content: Object.fromEntries(bodyMediaTypes(route).map((type) => [type, body ? { schema: body } : {}])),
  }
}
