/**
 * The CSRF plugin: a per-session token (synchronizer token pattern). The secret lives in the
 * session under `_csrf_token` (made on first use); `req.csrfToken`, which views get as
 * `csrf_token`, is that secret masked with a fresh random pad on every request (as Phoenix does),
 * so a page never carries the same bytes twice and compression cannot leak the secret (BREACH).
 * A POST, PUT, PATCH or DELETE must send a token of this session back, in the header
 * `x-csrf-token` or the body field `_csrf_token` (never the query string); otherwise the answer is a 403
 * `Forbidden - CSRF token invalid` (JSON or HTML by Accept) and the handler does not run.
 * Any masked token of the session is accepted (several open forms keep working); the comparison
 * is constant-time (`crypto.timingSafeEqual`).
 *
 * List it after the session plugin (the token is kept in the session) and after the request
 * plugin (which reads the body):
 *
 *   plugins: [requestPlugin({ urlencoded: true }), sessionPlugin(s), csrfPlugin({ exclude: ['/api'] })]
 *
 * Options: `exclude` — path prefixes not checked (`'/api'` covers `/api` and `/api/…`, not
 * `/apis`), for APIs authenticated by headers rather than cookies.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { httpError } from '../errors/http-error.ts'
import { definePlugin, fail, ok } from '../pipeline/plugin.ts'
import type { VelaRequest } from '../request.ts'

/** Options of `csrfPlugin`: the path prefixes it does not check. */
export interface CsrfPluginOptions {
  /** Path prefixes not checked (`'/api'` covers `/api` and `/api/…`, not `/apis`), for APIs authenticated by headers. */
  exclude?: readonly string[]
}

export const CSRF_SESSION_KEY = '_csrf_token'
/** The form (or JSON body) field a CSRF token is sent back in: `_csrf_token`. */
export const CSRF_FORM_FIELD = '_csrf_token'
/** The request header a CSRF token is sent back in: `x-csrf-token`. */
export const CSRF_HEADER = 'x-csrf-token'

const CHECKED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function excluded(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => {
    const base = p.endsWith('/') ? p.slice(0, -1) : p
    return path === base || path.startsWith(`${base}/`)
  })
}

const isForm = (type: string | undefined) =>
  type !== undefined && /^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i.test(type)

/**
 * The header, else the body's field: a form field, or a top-level key of a JSON object body. Read
 * from the body itself, not `req.params`, which with `query` also holds the query string: a
 * token in a URL leaks through logs, history and `Referer`, so it is never accepted there.
 */
function submittedToken(req: VelaRequest): string | undefined {
  const header = req.headers.get(CSRF_HEADER)
  if (header) return header
  const json = req.json
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const field = (json as Record<string, unknown>)[CSRF_FORM_FIELD]
    return typeof field === 'string' ? field : undefined
  }
  if (req.body === undefined || !isForm(req.header('content-type'))) return undefined
  const fields = new URLSearchParams(req.body).getAll(CSRF_FORM_FIELD)
  return fields.length === 1 ? fields[0] : undefined
}

const SECRET_BYTES = 32

/** `pad ‖ (pad XOR secret)`, base64url: a different string for the same secret every time. */
function mask(secret: Buffer): string {
  const pad = randomBytes(SECRET_BYTES)
  const out = Buffer.allocUnsafe(2 * SECRET_BYTES)
  pad.copy(out)
  for (let i = 0; i < SECRET_BYTES; i++) out[SECRET_BYTES + i] = pad[i]! ^ secret[i]!
  return out.toString('base64url')
}

/** Unmasks a submitted token and compares it with the secret in constant time. */
function matches(secret: Buffer, given: string): boolean {
  const raw = Buffer.from(given, 'base64url')
  if (raw.length !== 2 * SECRET_BYTES || secret.length !== SECRET_BYTES) return false
  const unmasked = Buffer.allocUnsafe(SECRET_BYTES)
  for (let i = 0; i < SECRET_BYTES; i++) unmasked[i] = raw[i]! ^ raw[SECRET_BYTES + i]!
  return timingSafeEqual(unmasked, secret)
}

/**
 * The CSRF plugin: a POST, PUT, PATCH or DELETE without this session's token is answered 403.
 *
 * The token (`req.csrfToken`, `csrf_token` in views) comes back in the `x-csrf-token` header or
 * the `_csrf_token` body field; a request without it never reaches the handler. List it after the session plugin and the
 * request plugin.
 *
 * ```ts
 * import { csrfPlugin, requestPlugin, sessionPlugin } from 'vela'
 *
 * export const browser = [
 *   requestPlugin({ urlencoded: true }),
 *   sessionPlugin({ cookieName: 'shop_session' }),
 *   csrfPlugin({ exclude: ['/api'] }),
 * ]
 * ```
 */
export const csrfPlugin = definePlugin<CsrfPluginOptions>({
  name: 'csrf',
  info: {
    title: 'CSRF protection',
    version: '1.0.0',
    author: 'Vela',
    description: 'Session-bound CSRF token, checked on POST/PUT/PATCH/DELETE from _csrf_token or x-csrf-token',
    options: { exclude: 'path prefixes not checked (e.g. /api)' },
  },
  preRequest(req, { options }) {
    const session = req.session
    if (!session) {
      return fail(new Error('the csrf plugin keeps its token in the session: list sessionPlugin(…) before it'))
    }
    let stored = session[CSRF_SESSION_KEY]
    if (typeof stored !== 'string' || Buffer.from(stored, 'base64url').length !== SECRET_BYTES) {
      stored = randomBytes(SECRET_BYTES).toString('base64url')
      session[CSRF_SESSION_KEY] = stored
    }
    const secret = Buffer.from(stored as string, 'base64url')
    req.csrfToken = mask(secret)
    if (!CHECKED_METHODS.has(req.method) || excluded(req.path, options.exclude ?? [])) return ok(req)
    const given = submittedToken(req)
    if (given === undefined || !matches(secret, given)) throw httpError(403, 'Forbidden - CSRF token invalid')
    return ok(req)
  },
})
