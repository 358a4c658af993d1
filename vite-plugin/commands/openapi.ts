/**
 * `vela openapi`: the OpenAPI 3.0.3 document of an app's route table (spec 4.6 rules 1–5). Pure:
 * route table and schemas in, document out; openapi-write.ts writes it with the explorer page.
 *
 * - `info.title` / `info.version` from `--title` (default: the app name) and `--api-version`
 *   (default `0.1.0`).
 * - One operation per route and method, `operationId` `<controller>.<action>`
 *   (`products_controller.show`), tagged with the controller. A route answering several methods
 *   gets one operation per method; as operationIds must be unique, the second and later ones with
 *   the same handler get `.<method>` appended (`items_controller.update.patch`). A route without
 *   `methods` is documented for GET, POST, PUT, PATCH and DELETE, each answering 200 OK.
 * - `:name` path parameters become `{name}`, declared `in: path`, `required: true`, type string;
 *   a trailing `[...]` becomes `{path}` the same way.
 * - Skipped: static-file routes, WebSocket routes (no HTTP operation to describe), status routes
 *   (they are not in the route table) and handlers of a controller named `*error_controller`.
 * - Schemas: `components.schemas.<name>` for each `priv/schemas/<name>.json` (`$schema` and `$id`
 *   dropped: OpenAPI 3.0 schema objects do not have them). A route uses the schema named by
 *   `options.schema`, else the one its controller names by convention: `products_controller` ↔
 *   `product` (the controller name without `_controller`, made singular by inflect.ts: `boxes` →
 *   `box`, `people` → `person`; a name that is not plural is used as it is), when that schema exists.
 * - Responses: a GET list route (its path does not end in a parameter) answers 200 `application/json`
 *   `{ <plural>: [<schema>] }` (`{ products: [...] }`, the reference app's shape), other GETs
 *   200 OK (with the schema when there is one); a POST create route (path not ending in a parameter)
 *   has a `requestBody` with the schema and answers 201 Created; PUT/PATCH have the schema as body
 *   and answer 200 OK; DELETE answers 204 No Content; any other operation 200 OK. Without a schema
 *   the same statuses are listed without content.
 */
import type { CompiledRoute, RouteTable } from '../../server/router/compile.ts'
import { singularize } from '../../dbl/inflect.ts'

export type JsonSchema = Record<string, unknown>

export interface OpenApiOptions {
  readonly title: string
  readonly version: string
  /** Schemas by name, as read from `priv/schemas/<name>.json`. */
  readonly schemas: Readonly<Record<string, JsonSchema>>
}

type Operation = Record<string, unknown>
export interface OpenApiDocument {
  openapi: '3.0.3'
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, JsonSchema> }
}

const WILDCARD_METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** `products_controller` → `products`; other names unchanged. */
export const resourceOf = (controller: string): string => controller.replace(/_controller$/, '')


/** The schema a route documents: `options.schema`, else the controller's by convention, if it exists. */
export function schemaFor(route: CompiledRoute, schemas: Readonly<Record<string, JsonSchema>>): string | undefined {
  if (route.options.schema) return route.options.schema
  const resource = resourceOf(route.info.controller)
  const name = singularize(resource) ?? resource
  return Object.hasOwn(schemas, name) ? name : undefined
}

/** `/api/products/:id` → `/api/products/{id}` and its parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = []
  const converted = path
    .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (params.push(name), `{${name}}`))
    .replace(/\[\.\.\.\]$/, () => (params.push('path'), '{path}'))
  return { path: converted, params }
}

const endsInParam = (path: string) => /(:[^/]+|\[\.\.\.\])$/.test(path)
const ref = (schema: string) => ({ $ref: `#/components/schemas/${schema}` })
const jsonContent = (schema: unknown) => ({ 'application/json': { schema } })

function responsesFor(method: string, route: CompiledRoute, schema: string | undefined): { requestBody?: unknown; responses: Record<number, unknown> } {
  const list = !endsInParam(route.path)
  const withSchema = (description: string, body?: unknown) => (schema ? { description, content: jsonContent(body ?? ref(schema)) } : { description })
  switch (method) {
    case 'get': {
      if (list && schema) {
        const plural = route.info.controller.endsWith('_controller') ? resourceOf(route.info.controller) : `${schema}s`
        return { responses: { 200: withSchema('OK', { type: 'object', properties: { [plural]: { type: 'array', items: ref(schema) } } }) } }
      }
      return { responses: { 200: withSchema('OK') } }
    }
    case 'post':
      if (list) {
        const requestBody = schema ? { requestBody: { required: true, content: jsonContent(ref(schema)) } } : {}
        return { ...requestBody, responses: { 201: withSchema('Created') } }
      }
      return { responses: { 200: { description: 'OK' } } }
    case 'put':
    case 'patch':
      return { ...(schema ? { requestBody: { required: true, content: jsonContent(ref(schema)) } } : {}), responses: { 200: withSchema('OK') } }
    case 'delete':
      return { responses: { 204: { description: 'No Content' } } }
    default:
      return { responses: { 200: { description: 'OK' } } }
  }
}

export const isDocumented = (route: CompiledRoute): boolean => route.kind === 'http' && !route.info.controller.endsWith('error_controller')

export function buildOpenApi(table: RouteTable, opts: OpenApiOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  const usedIds = new Set<string>()
  for (const route of table.routes) {
    if (!isDocumented(route)) continue
    const { path, params } = openApiPath(route.path)
    const schema = schemaFor(route, opts.schemas)
    const methods = route.methods === 'all' ? WILDCARD_METHODS : route.methods.map((m) => m.toLowerCase())
    for (const method of methods) {
      let operationId = `${route.info.controller}.${route.info.action}`
      if (usedIds.has(operationId)) operationId += `.${method}`
      usedIds.add(operationId)
      const parameters = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
      ;(paths[path] ??= {})[method] = {
        operationId,
        tags: [route.info.controller],
        ...(parameters.length ? { parameters } : {}),
        // A wildcard route is a catch-all, not a resource: no create/list inference for it.
        ...(route.methods === 'all' ? { responses: { 200: { description: 'OK' } } } : responsesFor(method, route, schema)),
      }
    }
  }
  const schemas = Object.fromEntries(
    Object.keys(opts.schemas)
      .sort()
      .map((name) => {
        const { $schema: _s, $id: _i, ...rest } = opts.schemas[name]!
        return [name, rest]
      }),
  )
  return { openapi: '3.0.3', info: { title: opts.title, version: opts.version }, paths, components: { schemas } }
}
