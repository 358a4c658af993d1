/**
 * The CSRF plugin: a per-session token (synchronizer token pattern). The token lives in the
 * session under `_csrf_token` (made on first use) and is exposed as `req.csrfToken`, which views
 * get as `csrf_token`. A POST, PUT, PATCH or DELETE must send it back, in the header
 * `x-csrf-token` or the form field `_csrf_token`; otherwise the answer is a 403
 * `Forbidden - CSRF token invalid` (JSON or HTML by Accept) and the handler does not run.
 * The comparison is constant-time (`crypto.timingSafeEqual`).
 *
 * Register it after the session plugin's pre-request entry (the token is kept in the session)
 * and after the request plugin (which decodes the form field into `req.params`):
 *
 *   plugins: [['pre_request', requestPlugin, { readUrlencodedBody: true }],
 *             ['pre_request', sessionPlugin, s], ['pre_request', csrfPlugin, { exclude: ['/api'] }],
 *             ['post_request', sessionPlugin, s]]
 *
 * Options: `exclude` — path prefixes not checked (`'/api'` covers `/api` and `/api/…`, not
 * `/apis`), for APIs authenticated by headers rather than cookies.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { httpError } from '../errors/http-error.ts'
import { definePlugin, fail, ok } from '../pipeline/plugin.ts'
import type { VelaRequest } from '../request.ts'

export interface CsrfPluginOptions {
  exclude?: readonly string[]
}

export const CSRF_SESSION_KEY = '_csrf_token'
export const CSRF_FORM_FIELD = '_csrf_token'
export const CSRF_HEADER = 'x-csrf-token'

const CHECKED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function excluded(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => {
    const base = p.endsWith('/') ? p.slice(0, -1) : p
    return path === base || path.startsWith(`${base}/`)
  })
}

function submittedToken(req: VelaRequest): string | undefined {
  const header = req.headers.get(CSRF_HEADER)
  if (header) return header
  const field = req.params[CSRF_FORM_FIELD]
  return typeof field === 'string' ? field : undefined
}

/** Constant-time for tokens of the expected length; the length itself is not a secret. */
function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

export const csrfPlugin = definePlugin<CsrfPluginOptions>({
  name: 'csrf',
  info: {
    title: 'CSRF protection',
    version: '1.0.0',
    author: 'Vela',
    description: 'Session-bound CSRF token, checked on POST/PUT/PATCH/DELETE from _csrf_token or x-csrf-token',
    options: { exclude: 'path prefixes not checked (e.g. /api)' },
  },
  preRequest(req, _env, options, _state) {
    const session = req.session
    if (!session) {
      return fail(new Error('the csrf plugin keeps its token in the session: register the session plugin (pre_request) before it'))
    }
    let token = session[CSRF_SESSION_KEY]
    if (typeof token !== 'string' || token === '') {
      token = randomBytes(32).toString('base64url')
      session[CSRF_SESSION_KEY] = token
    }
    req.csrfToken = token as string
    if (!CHECKED_METHODS.has(req.method) || excluded(req.path, options.exclude ?? [])) return ok(req)
    const given = submittedToken(req)
    if (given === undefined || !sameToken(token as string, given)) throw httpError(403, 'Forbidden - CSRF token invalid')
    return ok(req)
  },
})
