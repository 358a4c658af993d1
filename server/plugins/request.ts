/**
 * The request plugin: decodes bodies into `req.params` before security and
 * the handler run.
 *
 * Options:
 * - `json`: a request other than GET/HEAD/DELETE/OPTIONS with content type
 *   `application/json` (any parameters) gets `req.json` and, for an object, `req.params` set to
 *   the decoded body. An empty (`Content-Length: 0`, or no body at all) or malformed body is a 400
 *   `{ "error": … }`, as Fastify answers an empty JSON body.
 * - `urlencoded`: an `application/x-www-form-urlencoded` body becomes `req.params`
 *   (a repeated field gives an array; `req.readForm()`). More than the app's `maxFields`
 *   (default 1,000) is a 413.
 * - `query`: query string values are merged into `req.params` (body fields win). A query
 *   string with more than `maxFields` fields is a 414.
 * - `pass`: content types let through undecoded (like Plug.Parsers' `:pass`, e.g. `['*\/*']`).
 *   A request with a body of any other type that no enabled decoder reads is a 415, so a client
 *   sending JSON as `text/plain` is told so instead of reaching the handler with empty params.
 * Bodies larger than the app's `bodyLimit` are a 413. Keys `__proto__`, `constructor` and
 * `prototype` are dropped from decoded bodies at every depth, as from the query (../unsafe-keys.ts).
 * The older option names `decodeJsonBody`, `readUrlencodedBody` and `parseQs` still work, with a
 * deprecation warning.
 */
import { warnDeprecated } from '../deprecation.ts'
import { httpError } from '../errors/http-error.ts'
import { definePlugin, ok } from '../pipeline/plugin.ts'
import { EMPTY_JSON, FORM_TYPE, decodeJsonBody, hasBody, isJsonType, mediaType } from '../body-types.ts'

/** Options of `requestPlugin`: which bodies it decodes, whether the query joins `req.params`, and which types pass undecoded. */
export interface RequestPluginOptions {
  /** Decode `application/json` (and `*+json`) bodies into `req.json`, and `req.params` for an object; empty or malformed is a 400. */
  json?: boolean
  /** Decode `application/x-www-form-urlencoded` bodies into `req.params`. */
  urlencoded?: boolean
  /** Merge the query string's values into `req.params` (body fields win). */
  query?: boolean
  /** Content types let through undecoded (`['text/*']`, `['*\/*']`); a body of any other type no decoder reads is a 415. */
  pass?: readonly string[]
  /** @deprecated Use `json`. */
  decodeJsonBody?: boolean
  /** @deprecated Use `urlencoded`. */
  readUrlencodedBody?: boolean
  /** @deprecated Use `query`. */
  parseQs?: boolean
}

/** The options as the plugin reads them, older names folded in. */
interface Decoding {
  readonly json: boolean
  readonly urlencoded: boolean
  readonly query: boolean
  readonly pass: readonly string[]
}

function decodingOf(options: RequestPluginOptions): Decoding {
  const { decodeJsonBody: oldJson, readUrlencodedBody: oldUrlencoded, parseQs: oldQuery } = options
  if (oldJson !== undefined || oldUrlencoded !== undefined || oldQuery !== undefined) {
    warnDeprecated(
      'VELA_DEP_REQUEST_PLUGIN_OPTIONS',
      'requestPlugin options decodeJsonBody, readUrlencodedBody and parseQs are deprecated; use json, urlencoded and query',
    )
  }
  return {
    json: options.json ?? oldJson ?? false,
    urlencoded: options.urlencoded ?? oldUrlencoded ?? false,
    query: options.query ?? oldQuery ?? false,
    pass: options.pass ?? [],
  }
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS'])

function passes(type: string, pass: readonly string[]): boolean {
  return pass.some((p) => p === '*/*' || p === type || (p.endsWith('/*') && type.startsWith(p.slice(0, -1))))
}

/**
 * The request plugin: decodes JSON and URL-encoded bodies into `req.json` / `req.params`.
 *
 * It runs before security and the handler; `query` merges the query string too. A body no enabled
 * decoder reads is a 415, a larger one than `server.bodyLimit` a 413.
 *
 * ```ts
 * import { defineRoutes, json, requestPlugin } from 'vela'
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [requestPlugin({ json: true })],
 *   routes: [['POST /echo', (req) => json({ got: req.json })]],
 * })
 * ```
 */
export const requestPlugin = definePlugin<RequestPluginOptions, Decoding>({
  name: 'request',
  info: {
    title: 'Request body decoding',
    version: '1.0.0',
    author: 'Vela',
    description: 'Decodes JSON and URL-encoded bodies into req.params; merges the query string',
    options: {
      json: 'decode application/json bodies into req.json and req.params',
      urlencoded: 'decode application/x-www-form-urlencoded bodies into req.params',
      query: 'merge query string values into req.params',
      pass: 'content types let through undecoded (others with a body are a 415)',
    },
  },
  init: decodingOf,
  // Synchronous unless there is a body to read: most requests cost no promise here.
  preRequest(req, ctx) {
    const options = ctx.state
    if (options.query) req.params = { ...req.query }
    if (NO_BODY_METHODS.has(req.method)) return ok(req)
    const bodied = hasBody(req)
    // Without a body only a JSON content type matters: declaring JSON and sending nothing is a 400.
    if (!bodied && !options.json) return ok(req)
    const type = mediaType(req.header('content-type'))
    if (options.json && isJsonType(type)) {
      if (!bodied) throw httpError(400, EMPTY_JSON)
      return req.readBody().then((text) => {
        const value = decodeJsonBody(text, ctx.jsonLib)
        req.json = value
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          req.params = options.query
            ? { ...req.params, ...(value as Record<string, unknown>) }
            : (value as Record<string, unknown>)
        }
        return ok(req)
      })
    }
    if (!bodied) return ok(req)
    if (options.urlencoded && type === FORM_TYPE) {
      return req.readForm().then((form) => {
        req.params = options.query ? { ...req.params, ...form } : form
        return ok(req)
      })
    }
    if (passes(type, options.pass)) return ok(req)
    const accepted = [
      options.json && 'application/json',
      options.urlencoded && 'application/x-www-form-urlencoded',
      ...options.pass,
    ].filter(Boolean)
    if (accepted.length === 0) return ok(req)
    throw httpError(
      415,
      `Unsupported Media Type: ${type ? `content type ${type}` : 'a body without a content type'} is not accepted here; send ${accepted.join(' or ')}`,
    )
  },
})
