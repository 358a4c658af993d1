/**
 * An operation's responses, per status.
 *
 * - Success, by convention: a GET list route (path not ending in a parameter) answers 200
 *   `{ <plural>: [<schema>] }`, other GETs 200 with the schema; a POST create route 201 with the
 *   schema, other POSTs 200; PUT/PATCH 200 with the schema; DELETE 204 No Content. Without a
 *   schema, the same statuses without content. `validate.response` describes the success body.
 * - The route's `responses` option wins for every status it names; naming any 2xx status
 *   replaces the conventional success status.
 * - The errors the server itself answers, each unless `responses` names its status: 400 (a
 *   route with a JSON body: malformed JSON), 401 (a group with security), 403 (`forbids` below), 404 (a path
 *   with parameters), 413 (a route with a body: too large), 415 (a body the route cannot read:
 *   `validate.body`, or a request plugin running), 422 `ValidationErrors` (`validate`, or a
 *   route with a body), 429 (a rate-limit plugin in the route's pipeline), 500 always. Their
 *   bodies are the `Error` component (`{ error }`) and, for 422, `ValidationErrors`
 *   (`{ errors: { <field path>: [<message>] } }`).
 */
import type { CompiledRoute } from '../../server/router/compile.ts'
import type { DocContext } from './context.ts'
import type { JsonSchema } from './schema.ts'
import { componentName, componentRef } from './schema.ts'

export interface ResponseObject {
  description: string
  content?: Record<string, { schema?: JsonSchema }>
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}
export const reason = (status: number): string => REASONS[status] ?? `Status ${status}`

const json = (schema: JsonSchema | undefined): ResponseObject['content'] => ({
  'application/json': schema ? { schema } : {},
})

export interface ResponseFacts {
  readonly method: string
  /** The path does not end in a parameter. */
  readonly collection: boolean
  readonly schema: string | undefined
  readonly body: { content: Record<string, unknown> } | undefined
  readonly hasParams: boolean
  readonly decodesBodies: boolean
  readonly owner: string
}

function conventional(route: CompiledRoute, facts: ResponseFacts): { status: number; body?: JsonSchema } {
  const ref = facts.schema ? componentRef(componentName(facts.schema)) : undefined
  switch (facts.method) {
    case 'get': {
      if (!(facts.collection && ref)) return { status: 200, body: ref }
      const plural = route.info.controller.endsWith('_controller')
        ? route.info.controller.replace(/_controller$/, '')
        : `${facts.schema}s`
      return { status: 200, body: { type: 'object', properties: { [plural]: { type: 'array', items: ref } } } }
    }
    case 'post':
      return facts.collection ? { status: 201, body: ref } : { status: 200 }
    case 'put':
    case 'patch':
      return { status: 200, body: ref }
    case 'delete':
      return { status: 204 }
    default:
      return { status: 200 }
  }
}

const CSRF_CHECKED = new Set(['post', 'put', 'patch', 'delete'])

/**
 * Can the server answer 403 before the handler runs? A plain security callback may answer
 * anything (the document cannot know); a declared scheme's check answers 401 (`false`), and 403
 * only for schemes with scopes (OAuth 2, OpenID Connect); the CSRF plugin refuses unsafe methods
 * on paths it does not exclude. A check that answers 403 itself is declared with `responses`.
 */
function forbids(route: CompiledRoute, method: string): boolean {
  const { security, securityScheme } = route.group
  if (security !== false) {
    if (!securityScheme) return true
    if (securityScheme.scheme.type === 'oauth2' || securityScheme.scheme.type === 'openIdConnect') return true
  }
  if (!CSRF_CHECKED.has(method)) return false
  return route.group.pre.some((step) => {
    if (step.plugin.name !== 'csrf') return false
    const exclude = (step.options as { exclude?: readonly string[] } | undefined)?.exclude ?? []
    return !exclude.some((prefix) => {
      const base = prefix.replace(/\/$/, '')
      return route.path === base || route.path.startsWith(`${base}/`)
    })
  })
}

export function responsesFor(
  route: CompiledRoute,
  facts: ResponseFacts,
  ctx: DocContext,
): Record<string, ResponseObject> {
  const out: Record<number, ResponseObject> = {}
  const declared = route.options.responses ?? {}
  const statuses = Object.keys(declared).map(Number)
  const label = (part: string) => `route ${facts.method.toUpperCase()} ${route.path}: ${part}`
  // Declaring a 2xx, or a redirect and no 2xx, replaces the conventional success.
  if (!statuses.some((s) => s >= 200 && s < 400)) {
    const success = route.methods === 'all' ? { status: 200 } : conventional(route, facts)
    let body = success.body
    const response = route.options.validate?.response
    if (response !== undefined)
      body = ctx.resolve(response, 'output', {
        label: label('validate.response'),
        owner: `${facts.owner}_response`,
      })?.schema
    out[success.status] =
      success.status === 204 && !body
        ? { description: reason(204) }
        : body || response !== undefined
          ? { description: reason(success.status), content: json(body) }
          : { description: reason(success.status) }
  }
  for (const status of statuses) {
    // `null`: a reply without a body (a redirect, a 204).
    if (declared[status] === null) {
      out[status] = { description: reason(status) }
      continue
    }
    const resolved = ctx.resolve(declared[status]!, 'output', {
      label: label(`responses[${status}]`),
      owner: `${facts.owner}_${status}`,
    })
    out[status] = { description: reason(status), content: json(resolved?.schema) }
  }
  const validate = route.options.validate ?? {}
  const validates = ['body', 'query', 'params', 'headers'].some(
    (part) => validate[part as keyof typeof validate] !== undefined,
  )
  const withBody = facts.body !== undefined
  const jsonBody = withBody && 'application/json' in facts.body!.content
  const errors: [number, boolean][] = [
    [400, jsonBody],
    [401, route.group.security !== false],
    [403, forbids(route, facts.method)],
    [404, facts.hasParams],
    [413, withBody],
    [415, validate.body !== undefined || (withBody && facts.decodesBodies)],
    [422, validates || withBody],
    [429, route.group.pre.some((step) => step.plugin.name === 'rate-limit')],
    [500, true],
  ]
  for (const [status, applies] of errors) {
    if (!applies || Object.hasOwn(out, status)) continue
    out[status] = {
      description: reason(status),
      content: json(ctx.error(status === 422 ? 'ValidationErrors' : 'Error')),
    }
  }
  return Object.fromEntries(
    Object.keys(out)
      .map(Number)
      .sort((a, b) => a - b)
      .map((s) => [String(s), out[s]!]),
  )
}
