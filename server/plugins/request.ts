/**
 * The request plugin: decodes bodies into `req.params` before security and
 * the handler run.
 *
 * Options:
 * - `decodeJsonBody`: a request other than GET/HEAD/DELETE/OPTIONS with content type
 *   `application/json` (any parameters) gets `req.json` and, for an object, `req.params` set to
 *   the decoded body. An empty (`Content-Length: 0`, or no body at all) or malformed body is a 400
 *   `{ "error": … }`, as Fastify answers an empty JSON body.
 * - `readUrlencodedBody`: an `application/x-www-form-urlencoded` body becomes `req.params`
 *   (a repeated field gives an array; `req.readForm()`). More than the app's `maxFields`
 *   (default 1,000) is a 413.
 * - `parseQs`: query string values are merged into `req.params` (body fields win). A query
 *   string with more than `maxFields` fields is a 414.
 * - `pass`: content types let through undecoded (like Plug.Parsers' `:pass`, e.g. `['*\/*']`).
 *   A request with a body of any other type that no enabled decoder reads is a 415, so a client
 *   sending JSON as `text/plain` is told so instead of reaching the handler with empty params.
 * Bodies larger than the app's `bodyLimit` are a 413. Keys `__proto__`, `constructor` and
 * `prototype` are dropped from decoded bodies at every depth, as from the query (../unsafe-keys.ts).
 */
import { httpError } from '../errors/http-error.ts'
import { definePlugin, ok } from '../pipeline/plugin.ts'
import { EMPTY_JSON, FORM_TYPE, decodeJsonBody, hasBody, isJsonType, mediaType } from '../body-types.ts'

/** Options of `requestPlugin`: which bodies it decodes, whether the query joins `req.params`, and which types pass undecoded. */
export interface RequestPluginOptions {
  /** Decode `application/json` (and `*+json`) bodies into `req.json`, and `req.params` for an object; empty or malformed is a 400. */
  decodeJsonBody?: boolean
  /** Decode `application/x-www-form-urlencoded` bodies into `req.params`. */
  readUrlencodedBody?: boolean
  /** Merge the query string's values into `req.params` (body fields win). */
  parseQs?: boolean
  /** Content types let through undecoded (`['text/*']`, `['*\/*']`); a body of any other type no decoder reads is a 415. */
  pass?: readonly string[]
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS'])

function passes(type: string, pass: readonly string[]): boolean {
  return pass.some((p) => p === '*/*' || p === type || (p.endsWith('/*') && type.startsWith(p.slice(0, -1))))
}

/**
 * The request plugin: decodes JSON and URL-encoded bodies into `req.json` / `req.params`.
 *
 * It runs before security and the handler; `parseQs` merges the query too. A body no enabled
 * decoder reads is a 415, a larger one than `server.bodyLimit` a 413.
 *
 * ```ts
 * import { defineRoutes, json, requestPlugin } from 'vela'
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [['pre_request', requestPlugin, { decodeJsonBody: true }]],
 *   routes: [['POST /echo', (req) => json({ got: req.json })]],
 * })
 * ```
 */
export const requestPlugin = definePlugin<RequestPluginOptions>({
  name: 'request',
  info: {
    title: 'Request body decoding',
    version: '1.0.0',
    author: 'Vela',
    description: 'Decodes JSON and URL-encoded bodies into req.params; merges the query string',
    options: {
      decodeJsonBody: 'decode application/json bodies into req.json and req.params',
      readUrlencodedBody: 'decode application/x-www-form-urlencoded bodies into req.params',
      parseQs: 'merge query string values into req.params',
      pass: 'content types let through undecoded (others with a body are a 415)',
    },
  },
  // Synchronous unless there is a body to read: most requests cost no promise here.
  preRequest(req, env, options, _state) {
    if (options.parseQs) req.params = { ...req.query }
    if (NO_BODY_METHODS.has(req.method)) return ok(req)
    const bodied = hasBody(req)
    // Without a body only a JSON content type matters: declaring JSON and sending nothing is a 400.
    if (!bodied && !options.decodeJsonBody) return ok(req)
    const type = mediaType(req.header('content-type'))
    if (options.decodeJsonBody && isJsonType(type)) {
      if (!bodied) throw httpError(400, EMPTY_JSON)
      return req.readBody().then((text) => {
        const value = decodeJsonBody(text, env.jsonLib)
        req.json = value
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          req.params = options.parseQs
            ? { ...req.params, ...(value as Record<string, unknown>) }
            : (value as Record<string, unknown>)
        }
        return ok(req)
      })
    }
    if (!bodied) return ok(req)
    if (options.readUrlencodedBody && type === FORM_TYPE) {
      return req.readForm().then((form) => {
        req.params = options.parseQs ? { ...req.params, ...form } : form
        return ok(req)
      })
    }
    if (passes(type, options.pass ?? [])) return ok(req)
    const accepted = [
      options.decodeJsonBody && 'application/json',
      options.readUrlencodedBody && 'application/x-www-form-urlencoded',
      ...(options.pass ?? []),
    ].filter(Boolean)
    if (accepted.length === 0) return ok(req)
    throw httpError(
      415,
      `Unsupported Media Type: ${type ? `content type ${type}` : 'a body without a content type'} is not accepted here; send ${accepted.join(' or ')}`,
    )
  },
})
