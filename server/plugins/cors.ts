/**
 * The CORS plugin (`fw_cors_plugin`), on h3's CORS helpers. A preflight (OPTIONS with `Origin` and
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

export interface CorsPluginOptions {
  allowOrigins?: string | readonly string[]
  allowMethods?: readonly string[]
  allowHeaders?: readonly string[]
  exposeHeaders?: readonly string[]
  credentials?: boolean
  maxAge?: number
}

function toH3Options(o: CorsPluginOptions): CorsOptions {
  const list = typeof o.allowOrigins === 'string' ? o.allowOrigins.split(',').map((s) => s.trim()) : (o.allowOrigins ?? ['*'])
  return {
    origin: list.includes('*') ? '*' : [...list],
    methods: o.allowMethods ? [...o.allowMethods] : '*',
    allowHeaders: o.allowHeaders ? [...o.allowHeaders] : '*',
    exposeHeaders: o.exposeHeaders ? [...o.exposeHeaders] : '*',
    credentials: o.credentials ?? false,
    maxAge: o.maxAge === undefined ? false : String(o.maxAge),
  }
}

export const corsPlugin = definePlugin<CorsPluginOptions, CorsOptions | undefined>({
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
  preRequest(req, _env, options, state) {
    const cors = state ?? toH3Options(options)
    const origin = req.headers.get('origin')
    if (!origin || !isCorsOriginAllowed(origin, cors)) return ok(req, cors)
    if (isPreflightRequest(req.event)) {
      appendCorsPreflightHeaders(req.event, cors)
      return stop(status(204), cors)
    }
    appendCorsHeaders(req.event, cors)
    return ok(req, cors)
  },
})
