/**
 * Cookie sessions on h3's sealed sessions (iron: AES-256-CBC + HMAC-SHA256, keys derived from
 * the secret), so the client can neither read nor forge its session. The cookie is HttpOnly,
 * SameSite=Lax, Path=/, and Secure when the request came over https.
 *
 * The plugin needs both phases, registered with the same options (`sessionPlugins(options)` gives
 * the two entries):
 * - pre-request: unseals the cookie into `req.session`, a plain object (empty for a new visitor
 *   or a cookie that does not unseal — tampered, expired, other secret);
 * - post-request: when `req.session` changed, seals it into the cookie (removed keys stay
 *   removed); when it became empty (or `undefined`), deletes the cookie. A request that does not
 *   touch the session gets no Set-Cookie.
 * Changes are saved when the post-request phase runs, i.e. when the handler returned a reply; a
 * request that ends in an error or a pre-plugin `stop` keeps the session as it was.
 * Values must survive JSON (strings, numbers, booleans, arrays, plain objects).
 * Cost: iron derives its keys with one PBKDF2 round (iron's own default; h3 raises it to 8192).
 * The secret must be random and at least 32 characters, so stretching it protects nothing, while
 * 8192 rounds would make every write, and every new or forged cookie, cost 5–10 ms of CPU: an
 * easy denial of service by anonymous requests. Reads of a cookie seen before come from an
 * unseal cache (cache.ts) and cost about nothing.
 *
 * Options: `secret` (≥ 32 characters; else `VELA_SESSION_SECRET`; see secret.ts for what happens
 * without either), `cookieName` (default `vela_session`), `maxAge` (seconds; default: a browser
 * session cookie, the seal never expires), `secure` (`'auto'` by scheme, or force true/false).
 *
 * **Choice:** the secret is a run-time need, so `init` (run when the app is created, also to build
 * it or list its routes) does not look for it; the plugin's `start` hook does, when the app starts
 * serving, and a missing or short one refuses the start. An app used without `start` (an `inject`
 * test) resolves it on the first request instead.
 */
import type { H3Event, SessionConfig } from 'h3'
import { clearSession, getSession, updateSession } from 'h3'
import type { PluginEntry } from '../../pipeline/plugin.ts'
import { definePlugin, ok } from '../../pipeline/plugin.ts'
import { SessionCache } from './cache.ts'
import { MIN_SECRET_LENGTH, resolveSessionSecret } from './secret.ts'

export interface SessionOptions {
  secret?: string
  cookieName?: string
  maxAge?: number
  secure?: 'auto' | boolean
}

interface SealConfigs {
  readonly http: SessionConfig
  readonly https: SessionConfig
}

interface SessionState {
  /** The cookie configs, made with the secret on the first call (which fails without one). */
  readonly configs: () => SealConfigs
  readonly cache: SessionCache
}

export type SessionData = Record<string, unknown>

// The session as unsealed, to tell in the post phase whether the handler changed it.
const loaded = new WeakMap<H3Event, string>()
// h3 marks a session it made because the cookie was absent or did not unseal.
const kSessionNew = Symbol.for('h3.internal.session.new')
// h3 splits large sessions over several cookies; those are not cached (the marker is not the value).
const CHUNKED = '__chunked__'

function configFor(secret: string, options: SessionOptions, secure: boolean): SessionConfig {
  return {
    password: secret,
    name: options.cookieName ?? 'vela_session',
    maxAge: options.maxAge,
    // Only the cookie carries the session: h3 would also accept it from an `x-<name>-session` header.
    sessionHeader: false,
    legacySealFallback: false,
    // Partial on purpose: h3 spreads it over its defaults and the ttl it derives from maxAge.
    seal: SEAL as unknown as SessionConfig['seal'],
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure },
  }
}

// iron's defaults with one key-derivation round (see "Cost" above).
const SEAL = {
  encryption: { saltBits: 256, algorithm: 'aes-256-cbc', iterations: 1, minPasswordlength: MIN_SECRET_LENGTH },
  integrity: { saltBits: 256, algorithm: 'sha256', iterations: 1, minPasswordlength: MIN_SECRET_LENGTH },
} as const

const isEmpty = (data: SessionData | undefined | null) => !data || Object.keys(data).length === 0

export const sessionPlugin = definePlugin<SessionOptions, SessionState>({
  name: 'session',
  info: {
    title: 'Cookie sessions',
    version: '1.0.0',
    author: 'Vela',
    description: 'Sealed cookie sessions: req.session read in pre-request, saved in post-request',
    options: {
      secret: 'sealing secret, at least 32 characters (default: VELA_SESSION_SECRET)',
      cookieName: 'cookie name (default vela_session)',
      maxAge: 'session lifetime in seconds (default: until the browser closes)',
      secure: "'auto' (Secure under https, default), true or false",
    },
  },
  init(options, ctx) {
    let configs: SealConfigs | undefined
    const make = (): SealConfigs => {
      const secret = resolveSessionSecret({ secret: options.secret, environment: ctx.environment, env: ctx.env })
      const secure = options.secure ?? 'auto'
      return { http: configFor(secret, options, secure === true), https: configFor(secret, options, secure !== false) }
    }
    return { configs: () => (configs ??= make()), cache: new SessionCache(10_000, options.maxAge) }
  },
  start(_options, state) {
    state.configs()
  },
  async preRequest(req, _env, _options, state) {
    const config = req.scheme === 'https' ? state.configs().https : state.configs().http
    const name = config.name!
    const sealed = req.cookies[name]
    const cacheable = sealed !== undefined && !sealed.startsWith(CHUNKED)
    const hit = cacheable ? state.cache.get(sealed) : undefined
    // A hit goes where h3 keeps the request's session, so getSession (and a later
    // updateSession) use it instead of unsealing again.
    if (hit) ((req.event.context.sessions ??= {}) as Record<string, unknown>)[name] = hit
    const session = await getSession(req.event, config)
    if (cacheable && !hit && !(session as unknown as Record<symbol, unknown>)[kSessionNew]) state.cache.set(sealed, session)
    const data = { ...session.data } as SessionData
    loaded.set(req.event, JSON.stringify(data))
    req.session = data
    return ok(req)
  },
  async postRequest(req, _env, _options, state) {
    const before = loaded.get(req.event)
    // Without the pre-request registration there is nothing to compare with: leave the cookie alone.
    if (before === undefined) return ok(req)
    const data = req.session
    if (JSON.stringify(data ?? {}) === before) return ok(req)
    const config = req.scheme === 'https' ? state.configs().https : state.configs().http
    if (isEmpty(data)) {
      await clearSession(req.event, config)
    } else {
      // Replace, not merge: a key the handler deleted must not come back from the old data.
      await updateSession(req.event, config, (old) => {
        for (const key of Object.keys(old)) delete (old as SessionData)[key]
        return data!
      })
    }
    return ok(req)
  },
})

/** The two registrations the session plugin needs: spread them into a plugin list. */
export function sessionPlugins(options: SessionOptions = {}): PluginEntry[] {
  return [
    ['pre_request', sessionPlugin, options],
    ['post_request', sessionPlugin, options],
  ]
}
