/**
 * `vela openapi`: the OpenAPI document of an app's route table, 3.0.3 by default, 3.1.0 with
 * `openapi: '3.1'`. Pure: route table and schemas in, document out; write.ts writes it
 * with the explorer page.
 *
 * - `info.title` / `info.version` from `--title` (default: the app name) and `--api-version`
 *   (default `0.1.0`); `info.description` and `info.license` from the app's package.json
 *   (`description`, `license`), else a sentence naming the app and no license. `servers`: one
 *   entry, `/` (the server the document is served by) unless `servers` says otherwise.
 * - One operation per route and method, `operationId` `<controller>.<action>`
 *   (`products_controller.show`), tagged with the controller; every tag is declared in the
 *   top-level `tags` list. A route answering several methods gets one operation per method; as
 *   operationIds must be unique, the second and later ones with the same handler get `.<method>`
 *   appended (`items_controller.update.patch`). An `ALL` route is documented for GET, POST,
 *   PUT, PATCH and DELETE, each answering 200 OK.
 * - `:name` path parameters become `{name}`; a trailing `[...]` becomes `{path}`. Parameters and
 *   request bodies: request.ts; responses: responses.ts.
 * - Security: a group declared with `security: { scheme, check }` puts its scheme under
 *   `components.securitySchemes` (by its name: `bearerAuth`, `basicAuth`, `cookieAuth`, …) and
 *   `security: [{ <name>: [] }]` on each of its operations; `security: false` gives `security:
 *   []` (open). A group with a plain callback gets no `security` (the document cannot know
 *   what the callback reads), its 401 and 403 responses, and a description saying so.
 * - Skipped: static-file routes, WebSocket routes (no HTTP operation to describe), status routes
 *   (they are not in the route table) and handlers of a controller named `*error_controller`.
 * - Schemas: `components.schemas.<name>` for each `priv/schemas/<name>.json`, converted for the
 *   version (schema.ts). A route's schema by convention is `options.schema`, else the
 *   one its controller names: `products_controller` ↔ `product` (the controller name without
 *   `_controller`, made singular by inflect.ts; a name that is not plural is used as it is),
 *   when that schema exists.
 */
import type { NamedSecurityScheme, SecuritySchemeObject } from '../../server/contracts/routes.ts'
import type { RouteTable } from '../../server/router/compile.ts'
import { DocContext } from './context.ts'
import { endsInParam, isDocumented, openApiPath, schemaFor } from './paths.ts'
import type { Parameter } from './request.ts'
import { decodesBodies, parametersFor, requestBodyFor } from './request.ts'
import type { ResponseObject } from './responses.ts'
import { responsesFor } from './responses.ts'
import type { JsonSchema, OpenApiVersion } from './schema.ts'
import { securityOf } from './security.ts'

export type { JsonSchema, OpenApiVersion } from './schema.ts'
export { openApiPath } from './paths.ts'

export interface OpenApiOptions {
  readonly title: string
  readonly version: string
  /** Schemas by name, as read from `priv/schemas/<name>.json`. */
  readonly schemas: Readonly<Record<string, JsonSchema>>
  /** `'3.0'` (default) writes OpenAPI 3.0.3, `'3.1'` OpenAPI 3.1.0. */
  readonly openapi?: OpenApiVersion
  /** `info.description`; default a sentence naming the title. */
  readonly description?: string
  /** `info.license`: an SPDX identifier (`MIT`), as package.json's `license` gives it. */
  readonly license?: string
  /** `servers`; default `[{ url: '/' }]`. */
  readonly servers?: readonly { url: string; description?: string }[]
}

/** One operation of the document. */
export interface Operation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: Record<string, string[]>[]
  parameters?: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema?: JsonSchema }> }
  responses: Record<string, ResponseObject>
}

/** The document `buildOpenApi` returns, as written to `openapi.json`. */
export interface OpenApiDocument {
  openapi: '3.0.3' | '3.1.0'
  info: {
    title: string
    version: string
    description: string
    license?: { name: string; url?: string; identifier?: string }
  }
  servers: { url: string; description?: string }[]
  tags: { name: string; description: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, SecuritySchemeObject> }
}

const WILDCARD_METHODS = ['get', 'post', 'put', 'patch', 'delete']

function licenseOf(id: string | undefined, version: OpenApiVersion): OpenApiDocument['info']['license'] {
  if (!id || /^(UNLICENSED|SEE LICENSE)/i.test(id)) return undefined
  if (version === '3.1') return { name: id, identifier: id }
  return { name: id, url: `https://spdx.org/licenses/${encodeURIComponent(id)}.html` }
}

export function buildOpenApi(table: RouteTable, opts: OpenApiOptions): OpenApiDocument {
  const version = opts.openapi ?? '3.0'
  const ctx = new DocContext(version, opts.schemas)
  const paths: OpenApiDocument['paths'] = {}
  const usedIds = new Set<string>()
  const tags = new Map<string, { name: string; description: string }>()
  const securitySchemes: Record<string, SecuritySchemeObject> = {}
  const schemeNames = new Map<NamedSecurityScheme, string>()
  for (const route of table.routes) {
    if (!isDocumented(route)) continue
    const { path, params } = openApiPath(route.path)
    const schema = schemaFor(route, opts.schemas)
    const methods = route.methods === 'all' ? WILDCARD_METHODS : route.methods.map((m) => m.toLowerCase())
    const tag = route.info.controller
    if (!tags.has(tag)) tags.set(tag, { name: tag, description: `Operations answered by ${tag}.` })
    const security = securityOf(route, securitySchemes, schemeNames)
    for (const method of methods) {
      let operationId = `${route.info.controller}.${route.info.action}`
      if (usedIds.has(operationId)) operationId += `.${method}`
      usedIds.add(operationId)
      const owner = operationId.replace(/[^A-Za-z0-9_]/g, '_')
      const parameters = parametersFor(route, params, ctx, owner)
      const collection = !endsInParam(route.path)
      // A wildcard route is a catch-all, not a resource: no create/list inference for it.
      const conventionalBody =
        route.methods !== 'all' && ((method === 'post' && collection) || method === 'put' || method === 'patch')
      const requestBody = requestBodyFor(route, method, conventionalBody, schema, ctx, owner)
      const facts = {
        method,
        collection,
        schema: route.methods === 'all' ? undefined : schema,
        body: requestBody,
        hasParams: params.length > 0,
        decodesBodies: decodesBodies(route),
        owner,
      }
      ;(paths[path] ??= {})[method] = {
        operationId,
        summary: `${route.info.action} (${route.info.controller})`,
        ...(security === undefined
          ? {
              description: 'Checked by the route group’s own security callback: no security scheme is declared for it.',
            }
          : {}),
        tags: [tag],
        ...(security !== undefined ? { security } : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses: responsesFor(route, facts, ctx),
      }
    }
  }
  const components: OpenApiDocument['components'] = {
    schemas: Object.fromEntries(
      Object.keys(ctx.components)
        .sort()
        .map((name) => [name, ctx.components[name]!]),
    ),
  }
  if (Object.keys(securitySchemes).length) components.securitySchemes = securitySchemes
  const license = licenseOf(opts.license, version)
  return {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    info: {
      title: opts.title,
      version: opts.version,
      description: opts.description ?? `The HTTP API of ${opts.title}.`,
      ...(license ? { license } : {}),
    },
    servers: opts.servers ? [...opts.servers] : [{ url: '/' }],
    tags: [...tags.values()],
    paths,
    components,
  }
}
