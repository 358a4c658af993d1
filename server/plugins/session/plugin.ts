/**
 * Cookie sessions on h3's sealed sessions (iron: AES-256-CBC + HMAC-SHA256, keys derived from
 * the secret), so the client can neither read nor forge its session. The cookie is HttpOnly,
 * SameSite=Lax, Path=/, has a `Max-Age` (the session's remaining life), and is Secure under https,
 * or always outside dev and test (below).
 *
 * The plugin runs in both phases (`sessionPlugin(options)` registers both):
 * - pre-request: unseals the cookie into `req.session`, a plain object; empty for a new visitor
 *   and for a cookie refused: tampered or of another secret, past its idle or absolute lifetime
 *   (lifetime.ts), revoked (store.ts), or refused by the `validate` option;
 * - post-request: when `req.session` changed, seals it into the cookie (removed keys stay
 *   removed); when it became empty (or `undefined`), revokes the session and deletes the cookie;
 *   after `renewSession(req)`, seals a new session and revokes the old one. A request that does
 *   not touch the session gets no Set-Cookie, except once per tenth of the idle window, when the
 *   session is re-sealed to slide its idle deadline, and when a refused cookie is deleted.
 * Changes are saved when the post-request phase runs, i.e. when the handler returned a reply; a
 * request that ends in an error or a pre-plugin `stop` keeps the session as it was.
 * Values must survive JSON (strings, numbers, booleans, arrays, plain objects).
 *
 * Revocation: a logout (an emptied session) or a renewal records the old session's id in the
 * `store` until its absolute lifetime ends, so a copy of the cookie taken before is refused. The
 * default store is this process's memory; give several instances a shared one (`RedisSessionStore`).
 * "Log out everywhere" is the app's: keep a per-user generation (a counter in the users table)
 * in the session at login and compare it in `validate`, or in the security callback.
 *
 * Cost: iron derives its keys with one PBKDF2 round (iron's own default; h3 raises it to 8192).
 * The secret must be random and at least 32 characters, so stretching it protects nothing, while
 * 8192 rounds would make every write, and every new or forged cookie, cost 5–10 ms of CPU: an
 * easy denial of service by anonymous requests. Reads of a cookie seen before come from an
 * unseal cache (cache.ts); the store is asked on every request that carries a session.
 *
 * Options: `secret` (≥ 32 characters; else `VELA_SESSION_SECRET`; see secret.ts for what happens
 * without either), `cookieName` (default `vela_session`), `idleTimeout` (seconds, default 7 days),
 * `absoluteTimeout` (seconds, default 30 days; `maxAge` is its older name), `secure` (`'auto'`:
 * by the request's scheme, the default in dev and test; `true` elsewhere, since production sits
 * behind a TLS proxy; `false` to opt out), `store` and `validate`.
 *
 * **Choice:** the secret is a run-time need, so `init` (run when the app is created, also to build
 * it or list its routes) does not look for it; the plugin's `start` hook does, when the app starts
 * serving, and a missing or short one refuses the start. An app used without `start` (an `inject`
 * test) resolves it on the first request instead.
 */
import { randomUUID } from 'node:crypto'
import type { SessionConfig } from 'h3'
import { deleteChunkedCookie, getChunkedCookie, sealSession, setChunkedCookie, unsealSession } from 'h3'
import type { MaybePromise } from '../../contracts/primitives.ts'
import { warnDeprecated } from '../../deprecation.ts'
import type { PluginUse } from '../../pipeline/plugin.ts'
import { definePlugin, ok } from '../../pipeline/plugin.ts'
import type { VelaRequest } from '../../request.ts'
import { SessionCache, type UnsealedSession } from './cache.ts'
import { expiresAt, lifetimes, type Lifetimes } from './lifetime.ts'
import { loadedSessions, type LoadedSession, type SessionData } from './renew.ts'
import { MIN_SECRET_LENGTH, resolveSessionSecret } from './secret.ts'
import { MemorySessionStore, type SessionStore } from './store.ts'

export type { SessionData } from './renew.ts'

/** A valid session, as the `validate` option sees it. */
export interface SessionInfo {
  readonly id: string
  /** When the session started (epoch ms): its login, for a session renewed at login. */
  readonly issuedAt: number
  readonly data: SessionData
}

/** Options of the session plugin (`sessionPlugin(options)`); times in seconds. */
export interface SessionOptions {
  /** Sealing secret, at least 32 characters (default `VELA_SESSION_SECRET`). */
  secret?: string
  /** Default `vela_session`. */
  cookieName?: string
  /** A session unused this long ends (default 7 days). */
  idleTimeout?: number
  /** A session ends this long after it started, however active (default 30 days). */
  absoluteTimeout?: number
  /** The older name of `absoluteTimeout` (used when that is absent). */
  maxAge?: number
  /** `'auto'`: Secure under https. Default `'auto'` in dev and test, `true` in every other environment. */
  secure?: 'auto' | boolean
  /** Where revoked sessions are recorded (default: this process's memory). */
  store?: SessionStore
  /** Asked for every valid session; `false` makes it empty (e.g. a per-user generation changed by "log out everywhere"). */
  validate?: (session: SessionInfo, req: VelaRequest) => MaybePromise<boolean>
}

type CookieSerializeOptions = NonNullable<Parameters<typeof setChunkedCookie>[3]>

interface SealConfigs {
  readonly seal: SessionConfig
  readonly http: CookieSerializeOptions
  readonly https: CookieSerializeOptions
}

interface SessionState {
  /** The seal and cookie configs, made with the secret on the first call (which fails without one). */
  readonly configs: () => SealConfigs
  readonly cache: SessionCache
  readonly limits: Lifetimes
  readonly store: SessionStore
}

// One default store for the process: every registration (each group, each phase) sees the same revocations.
let defaultStore: MemorySessionStore | undefined
// h3 splits large sessions over several cookies; those are not cached (the marker is not the value).
const CHUNKED = '__chunked__'

// iron's defaults with one key-derivation round (see "Cost" above); h3 fills in the rest.
const SEAL = {
  encryption: { saltBits: 256, algorithm: 'aes-256-cbc', iterations: 1, minPasswordlength: MIN_SECRET_LENGTH },
  integrity: { saltBits: 256, algorithm: 'sha256', iterations: 1, minPasswordlength: MIN_SECRET_LENGTH },
} as const

function sealConfig(secret: string, name: string, limits: Lifetimes): SessionConfig {
  return {
    password: secret,
    name,
    // No maxAge/idleTimeout here: this plugin checks both itself. The seal's own ttl (the
    // absolute lifetime from the last seal) is a second, coarser bound.
    seal: { ...SEAL, ttl: limits.absoluteMs } as unknown as SessionConfig['seal'],
    sessionHeader: false,
    legacySealFallback: false,
  }
}

const isEmpty = (data: SessionData | undefined | null) => !data || Object.keys(data).length === 0

/** The unsealed payload, if it has the fields this plugin seals (anything else is refused). */
function payloadOf(unsealed: Partial<Record<string, unknown>>): UnsealedSession | undefined {
  const { id, createdAt, seenAt, data } = unsealed
  if (typeof id !== 'string' || !id || typeof createdAt !== 'number' || typeof data !== 'object' || data === null)
    return undefined
  // Cookies sealed before sessions carried `seenAt` count their idle time from their start.
  return { id, createdAt, seenAt: typeof seenAt === 'number' ? seenAt : createdAt, data: { ...(data as SessionData) } }
}

async function unsealed(
  req: VelaRequest,
  state: SessionState,
  name: string,
  now: number,
): Promise<UnsealedSession | undefined> {
  const raw = req.cookies[name]
  if (raw === undefined) return undefined
  const cacheable = !raw.startsWith(CHUNKED)
  const hit = cacheable ? state.cache.get(raw, now) : undefined
  if (hit) return hit
  const sealed = cacheable ? raw : getChunkedCookie(req.event, name)
  const session = sealed
    ? await unsealSession(req.event, state.configs().seal, sealed).then(payloadOf, () => undefined)
    : undefined
  if (session && cacheable) state.cache.set(raw, session, expiresAt(session, state.limits))
  return session
}

/** The cookie's session if it is still valid: unsealed, within both lifetimes, not revoked, validated. */
async function validSession(req: VelaRequest, state: SessionState, options: SessionOptions, name: string, now: number) {
  const session = await unsealed(req, state, name, now)
  if (!session || now >= expiresAt(session, state.limits)) return undefined
  if (await state.store.isRevoked(session.id, session.createdAt)) return undefined
  if (
    options.validate &&
    !(await options.validate({ id: session.id, issuedAt: session.createdAt, data: session.data }, req))
  )
    return undefined
  return session
}

async function writeCookie(
  req: VelaRequest,
  state: SessionState,
  session: UnsealedSession,
  now: number,
): Promise<void> {
  const { seal, http, https } = state.configs()
  const cookie = req.scheme === 'https' ? https : http
  const maxAge = Math.floor((expiresAt(session, state.limits) - now) / 1000)
  if (maxAge <= 0)
    return deleteChunkedCookie(req.event, seal.name!, cookie)
    // h3 seals the request's session as it keeps it in the event's context.
  ;((req.event.context.sessions ??= {}) as Record<string, unknown>)[seal.name!] = { ...session }
  setChunkedCookie(req.event, seal.name!, await sealSession(req.event, seal), { ...cookie, maxAge })
}

async function revoke(state: SessionState, current: LoadedSession['current']): Promise<void> {
  if (current) await state.store.revoke(current.id, current.createdAt, current.createdAt + state.limits.absoluteMs)
}

/**
 * The cookie-session plugin: `req.session` kept in a sealed cookie, with lifetimes and revocation.
 *
 * It reads the cookie before the handler and saves the session after it. The secret comes from
 * `secret` or `VELA_SESSION_SECRET` (at least 32 characters).
 *
 * @example
 * ```ts
 * import { defineRoutes, json, requestPlugin, sessionPlugin, type VelaRequest } from 'vela'
 *
 * function visits(req: VelaRequest) {
 *   const count = Number(req.session?.visits ?? 0) + 1
 *   req.session = { ...req.session, visits: count }
 *   return json({ visits: count })
 * }
 *
 * export default defineRoutes({
 *   prefix: '',
 *   security: false,
 *   plugins: [requestPlugin({ urlencoded: true }), sessionPlugin({ cookieName: 'shop_session', idleTimeout: 3600 })],
 *   routes: [['GET /visits', visits]],
 * })
 * ```
 */
export const sessionPlugin = definePlugin<SessionOptions, SessionState>({
  name: 'session',
  info: {
    title: 'Cookie sessions',
    version: '1.1.0',
    author: 'Vela',
    description:
      'Sealed cookie sessions with idle and absolute lifetimes and revocation: req.session read in pre-request, saved in post-request',
    options: {
      secret: 'sealing secret, at least 32 characters (default: VELA_SESSION_SECRET)',
      cookieName: 'cookie name (default vela_session)',
      idleTimeout: 'seconds without use after which a session ends (default 604800, 7 days)',
      absoluteTimeout: 'seconds after its start at which a session ends (default 2592000, 30 days)',
      maxAge: 'older name of absoluteTimeout',
      secure: "'auto' (Secure under https; default in dev and test), true (default elsewhere) or false",
      store: 'where revoked sessions are recorded (default: memory of this process; RedisSessionStore for several)',
      validate: '(session, req) => boolean: false empties the session (e.g. after "log out everywhere")',
    },
  },
  init(options, ctx) {
    const limits = lifetimes(options)
    const secure = options.secure ?? (ctx.environment === 'dev' || ctx.environment === 'test' ? 'auto' : true)
    const base: CookieSerializeOptions = { path: '/', httpOnly: true, sameSite: 'lax' }
    let configs: SealConfigs | undefined
    const make = (): SealConfigs => {
      const secret = resolveSessionSecret({ secret: options.secret, environment: ctx.environment, env: ctx.env })
      return {
        seal: sealConfig(secret, options.cookieName ?? 'vela_session', limits),
        http: { ...base, secure: secure === true },
        https: { ...base, secure: secure !== false },
      }
    }
    const store = options.store ?? (defaultStore ??= new MemorySessionStore())
    return { configs: () => (configs ??= make()), cache: new SessionCache(10_000), limits, store }
  },
  start(_options, state) {
    state.configs()
  },
  async preRequest(req, { options, state }) {
    const name = state.configs().seal.name!
    const session = await validSession(req, state, options, name, Date.now())
    const data = session?.data ?? {}
    const current = session && { id: session.id, createdAt: session.createdAt, seenAt: session.seenAt }
    loadedSessions.set(req.event, {
      current,
      refused: !session && req.cookies[name] !== undefined,
      json: JSON.stringify(data),
      renew: false,
    })
    req.session = data
    return ok(req)
  },
  async postRequest(req, { state }) {
    const loaded = loadedSessions.get(req.event)
    // Without the pre-request registration there is nothing to compare with: leave the cookie alone.
    if (loaded === undefined) return ok(req)
    const data = req.session ?? {}
    const { current } = loaded
    const now = Date.now()
    const changed = JSON.stringify(data) !== loaded.json
    if (loaded.renew || (changed && isEmpty(data))) await revoke(state, current)
    if (isEmpty(data)) {
      if (current || loaded.refused)
        deleteChunkedCookie(
          req.event,
          state.configs().seal.name!,
          req.scheme === 'https' ? state.configs().https : state.configs().http,
        )
    } else if (loaded.renew || !current) {
      await writeCookie(req, state, { id: randomUUID(), createdAt: now, seenAt: now, data }, now)
    } else if (changed || now - current.seenAt >= state.limits.refreshMs) {
      await writeCookie(req, state, { ...current, seenAt: now, data }, now)
    }
    return ok(req)
  },
})

/**
 * The session plugin registered with `options`, as a list to spread into `plugins`.
 *
 * @deprecated List `sessionPlugin(options)` itself: it runs in both phases.
 *
 * @example
 * ```ts
 * import { sessionPlugin } from 'vela'
 *
 * // Before: plugins: [...sessionPlugins({ cookieName: 'shop_session' })]
 * export const plugins = [sessionPlugin({ cookieName: 'shop_session' })]
 * ```
 */
export function sessionPlugins(options: SessionOptions = {}): PluginUse<SessionOptions, SessionState>[] {
  warnDeprecated(
    'VELA_DEP_SESSION_PLUGINS',
    'sessionPlugins(options) is deprecated; list sessionPlugin(options) in plugins: it runs in both phases',
  )
  return [sessionPlugin(options)]
}
