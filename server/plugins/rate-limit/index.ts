/**
 * The rate-limit plugin: counts requests per key (by default the client address) in a fixed
 * window and, once a key has used up `maxRequests` in the current window, stops the pipeline with
 * a 429 before security and the handler run.
 *
 * "When the count reaches the maximum" is read as: `maxRequests` requests per window are served,
 * and the request arriving once that count has been reached is refused. With `maxRequests: 3`,
 * requests 1–3 pass and the 4th gets the 429 (so the option means what its name says).
 *
 * Every counted answer carries `RateLimit-Limit` and `RateLimit-Remaining` (and `RateLimit-Reset`,
 * seconds); the 429 also carries `Retry-After` (seconds until the window ends, at least 1). With
 * several limiters on a route, the headers are those of the limiter with the fewest requests left.
 *
 * Options: `maxRequests` (default 100), `windowMs` (default 60000), `store` (default: a memory
 * store of this registration; pass a `RedisRateLimitStore` so several instances share one limit),
 * `key` (default `byAddress`; keys.ts), `name` (the counters' namespace in the store),
 * `headers` (default true). A store that fails (Redis down) makes the request a 500: the plugin
 * does not silently stop limiting.
 *
 * Several limiters on one route (per address, per account) each count on their own: each
 * registration has its own memory store, and in a shared store (one `RedisRateLimitStore` for the app)
 * every key is prefixed with the limiter's `name`, by default the key helper's (`address`,
 * `field:username`), `key` for an app's own function. Two registrations with the same name and
 * store share one counter (one limit across routes). Keys are client input: one longer than 64
 * characters is stored as its SHA-256, so a key never costs a store more than ~100 bytes.
 */
import { definePlugin, ok, stop } from '../../pipeline/plugin.ts'
import { json } from '../../replies.ts'
import { createHash } from 'node:crypto'
import { byAddress, keyName } from './keys.ts'
import type { RateLimitKey } from './keys.ts'
import { MemoryRateLimitStore } from './memory-store.ts'
import type { RateLimitStore } from './store.ts'
import { VelaError } from '../../errors/vela-error.ts'

/** The rate-limit plugin's options (each registration takes its own). */
export interface RateLimitOptions {
  /** Requests served per window and key (default 100); the next one is a 429. */
  maxRequests?: number
  /** Window length in milliseconds (default 60000). */
  windowMs?: number
  /** Where counters live (default: a memory store of this registration). */
  store?: RateLimitStore
  /**
   * What to count by (default `byAddress`, the client address): `byField('username')`,
   * `byAddressAndField('username')` or a function; `undefined` from it leaves the request uncounted.
   */
  key?: RateLimitKey
  /** The counters' namespace in the store (default: the key helper's name, `key` for an app's own function). */
  name?: string
  /** Send the RateLimit-* headers (default true). */
  headers?: boolean
}

interface Limits {
  readonly max: number
  readonly windowMs: number
  readonly store: RateLimitStore
  readonly key: RateLimitKey
  readonly prefix: string
  readonly headers: boolean
}

// Keys up to this length are stored as they are (addresses, usernames); longer ones as a hash.
const MAX_KEY_LENGTH = 64
const storedKey = (key: string) =>
  key.length <= MAX_KEY_LENGTH ? key : `#${createHash('sha256').update(key).digest('base64url')}`

const HEADER_NAMES = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const

/** Whether the headers already set by an earlier limiter show fewer requests left than `remaining`. */
function tighterAlreadySet(out: Headers, remaining: number): boolean {
  const set = out.get('ratelimit-remaining')
  return set !== null && Number(set) <= remaining
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      `rate-limit plugin: \`${name}\` must be a positive integer, got ${JSON.stringify(value)}`,
    )
  }
  return value
}

function limitsOf(options: RateLimitOptions): Limits {
  const key = options.key ?? byAddress
  if (typeof key !== 'function')
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      `rate-limit plugin: \`key\` must be a function of the request, got ${JSON.stringify(key)}`,
    )
  const name = options.name ?? keyName(key) ?? 'key'
  if (typeof name !== 'string' || name === '')
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      `rate-limit plugin: \`name\` must be a non-empty string, got ${JSON.stringify(name)}`,
    )
  return {
    max: positiveInteger('maxRequests', options.maxRequests, 100),
    windowMs: positiveInteger('windowMs', options.windowMs, 60_000),
    store: options.store ?? new MemoryRateLimitStore(),
    key,
    prefix: `${name}:`,
    headers: options.headers ?? true,
  }
}

/**
 * The rate-limit plugin: counts requests per key in fixed windows and answers 429 past `maxRequests`.
 *
 * The key is the client address unless `key` says otherwise; the 429 carries `Retry-After`, and
 * counted answers carry `RateLimit-Limit`, `-Remaining` and `-Reset`. It runs before the handler;
 * list it once per limit (each registration counts on its own).
 *
 * ```ts
 * import { byField, rateLimitPlugin, requestPlugin } from 'vela'
 *
 * export const login = [
 *   rateLimitPlugin({ maxRequests: 100, windowMs: 60_000 }),
 *   requestPlugin({ urlencoded: true }),
 *   rateLimitPlugin({ key: byField('username'), maxRequests: 10, windowMs: 15 * 60_000, headers: false }),
 * ]
 * ```
 */
export const rateLimitPlugin = definePlugin<RateLimitOptions, Limits>({
  name: 'rate-limit',
  info: {
    title: 'Rate limit',
    version: '1.0.0',
    author: 'Vela',
    description:
      'Limits requests per key (client address, account…) in a fixed window; over the limit is a 429 with Retry-After',
    options: {
      maxRequests: 'requests served per window and key (default 100)',
      windowMs: 'window length in milliseconds (default 60000)',
      store: 'counter store: memory (default) or a RedisRateLimitStore shared by instances',
      key: 'function of the request giving the key, undefined to not count it (default byAddress; byField, byAddressAndField)',
      name: "the counters' namespace in the store (default: the key helper's name)",
      headers: 'send RateLimit-Limit / -Remaining / -Reset (default true)',
    },
  },
  // Options are checked and the store made once per registration, at start-up.
  init: (options) => limitsOf(options),
  async preRequest(req, { state: limits }) {
    const key = limits.key(req)
    if (key === undefined) return ok(req)
    const { count, resetAt } = await limits.store.increment(limits.prefix + storedKey(key), limits.windowMs)
    const secondsLeft = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
    const remaining = Math.max(0, limits.max - count)
    const headers: Record<string, string> = limits.headers
      ? {
          'ratelimit-limit': String(limits.max),
          'ratelimit-remaining': String(remaining),
          'ratelimit-reset': String(secondsLeft),
        }
      : {}
    if (count > limits.max) {
      // An earlier limiter's headers on the event would override this reply's: the 429 shows the
      // count of the limiter that refused (or none, with `headers: false`).
      const earlier = req.eventIfMade?.res.headers
      if (earlier) for (const name of HEADER_NAMES) earlier.delete(name)
      const error = `Too Many Requests - rate limit exceeded, retry in ${secondsLeft} s`
      return stop(json({ error }, { status: 429, headers: { ...headers, 'retry-after': String(secondsLeft) } }))
    }
    if (limits.headers) {
      const out = req.event.res.headers
      if (!tighterAlreadySet(out, remaining)) for (const name in headers) out.set(name, headers[name]!)
    }
    return ok(req)
  },
})

export { byAddress, byAddressAndField, byField } from './keys.ts'
export type { RateLimitKey } from './keys.ts'
export { MemoryRateLimitStore, MemoryStore } from './memory-store.ts'
export type { MemoryRateLimitStoreOptions, MemoryStoreOptions } from './memory-store.ts'
export { RedisRateLimitStore, RedisStore } from './redis-store.ts'
export type { RedisRateLimitStoreOptions, RedisStoreOptions } from './redis-store.ts'
export type { RateLimitHit, RateLimitStore } from './store.ts'
