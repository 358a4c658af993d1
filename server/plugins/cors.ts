/**
 * The CORS plugin, on h3's CORS helpers. A preflight (OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) from an allowed origin is answered 204 here, even when the route
 * does not list `options` (the router sends such preflights through the group's plugins). Other
 * requests from an allowed origin get the CORS response headers, errors included.
 *
 * Options: `allowOrigins` — `'*'`, one origin, a comma-separated list or an array (default `'*'`);
 * `allowMethods`, `allowHeaders`, `exposeHeaders` (default `'*'`), `credentials`, `maxAge` (seconds).
 */
import { appendCorsHeaders, appendCorsPreflightHeaders, isCorsOriginAllowed, isPreflightRequest } from 'h3'
import type { CorsOptions } from 'h3'
import { definePlugin, ok, stop } from '../pipeline/plugin.ts'
import { status } from '../replies.ts'

/** Options of `corsPlugin`: which origins, methods and headers are allowed, and for how long preflights are cached. */
export interface CorsPluginOptions {
  /** `'*'`, one origin, a comma-separated list or an array (default `'*'`). */
  allowOrigins?: string | readonly string[]
  /** Methods allowed in preflights (default `*`). */
  allowMethods?: readonly string[]
  /** Request headers allowed in preflights (default `*`). */
  allowHeaders?: readonly string[]
  /** Response headers exposed to scripts (default `*`). */
  exposeHeaders?: readonly string[]
  /** Send `Access-Control-Allow-Credentials: true` (default false). */
  credentials?: boolean
  /** Seconds a browser may cache a preflight's answer (default: not sent). */
  maxAge?: number
}

function toH3Options(o: CorsPluginOptions): CorsOptions {
  const list =
    typeof o.allowOrigins === 'string' ? o.allowOrigins.split(',').map((s) => s.trim()) : (o.allowOrigins ?? ['*'])
  return {
    origin: list.includes('*') ? '*' : [...list],
    methods: o.allowMethods ? [...o.allowMethods] : '*',
    allowHeaders: o.allowHeaders ? [...o.allowHeaders] : '*',
    exposeHeaders: o.exposeHeaders ? [...o.exposeHeaders] : '*',
    credentials: o.credentials ?? false,
    maxAge: o.maxAge === undefined ? false : String(o.maxAge),
  }
}

/**
 * The CORS plugin: answers preflights from allowed origins and adds CORS headers to their replies.
 *
 * A preflight is answered 204; other replies, errors included, get the headers. It runs before
 * the handler.
 *
 * ```ts
 * import { corsPlugin, defineRoutes, json } from 'vela'
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [corsPlugin({ allowOrigins: ['https://app.example.com'], credentials: true, maxAge: 600 })],
 *   routes: [['GET /me', () => json({ name: 'Ada' })]],
 * })
 * ```
 */
export const corsPlugin = definePlugin<CorsPluginOptions, CorsOptions>({
  name: 'cors',
  info: {
    title: 'CORS',
    version: '1.0.0',
    author: 'Vela',
    description: 'Answers CORS preflights and adds CORS headers for allowed origins',
    options: {
      allowOrigins: "'*', an origin, a comma-separated list or an array",
      allowMethods: 'methods allowed in preflights (default *)',
      allowHeaders: 'request headers allowed in preflights (default *)',
      exposeHeaders: 'response headers exposed to scripts (default *)',
      credentials: 'send access-control-allow-credentials',
      maxAge: 'seconds a preflight may be cached',
    },
  },
  // The h3 options are derived once per registration and kept as the plugin's state.
  init: (options) => toH3Options(options),
  preRequest(req, ctx) {
    const cors = ctx.state
    // Read from node's parsed headers: `req.headers` would make the h3 event and a web `Headers`
    // for every request, most of which (same-origin, servers, tools) send no Origin at all.
    const origin = req.header('origin')
    if (!origin || !isCorsOriginAllowed(origin, cors)) return ok(req)
    if (isPreflightRequest(req.event)) {
      appendCorsPreflightHeaders(req.event, cors)
      return stop(status(204))
    }
    appendCorsHeaders(req.event, cors)
    return ok(req)
  },
})
