/**
 * The rate-limit plugin (spec §8's example plugin): counts requests per peer IP in a fixed window
 * and, once a client has used up `maxRequests` in the current window, stops the pipeline with a
 * 429 before security and the handler run.
 *
 * "When the count reaches the maximum" is read as: `maxRequests` requests per window are served,
 * and the request arriving once that count has been reached is refused. With `maxRequests: 3`,
 * requests 1–3 pass and the 4th gets the 429 (so the option means what its name says).
 *
 * Every answer carries `RateLimit-Limit` and `RateLimit-Remaining` (and `RateLimit-Reset`,
 * seconds); the 429 also carries `Retry-After` (seconds until the window ends, at least 1).
 *
 * Options: `maxRequests` (default 100), `windowMs` (default 60000), `store` (default: a memory
 * store of this registration; pass a `RedisStore` so several instances share one limit),
 * `key` (default: the peer IP), `headers` (default true). A store that fails (Redis down) makes
 * the request a 500: the plugin does not silently stop limiting.
 */
import { definePlugin, ok, stop } from '../../pipeline/plugin.ts'
import { json } from '../../replies.ts'
import type { VelaRequest } from '../../request.ts'
import { MemoryStore } from './memory-store.ts'
import type { RateLimitStore } from './store.ts'
import { VelaError } from '../../errors/vela-error.ts'

export interface RateLimitOptions {
  maxRequests?: number
  windowMs?: number
  store?: RateLimitStore
  /** What to count by (default `req.peer`, the socket's address). */
  key?: (req: VelaRequest) => string
  /** Send the RateLimit-* headers (default true). */
  headers?: boolean
}

interface Limits {
  readonly max: number
  readonly windowMs: number
  readonly store: RateLimitStore
  readonly key: (req: VelaRequest) => string
  readonly headers: boolean
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new VelaError('VELA_ERR_PLUGIN', `rate-limit plugin: \`${name}\` must be a positive integer, got ${JSON.stringify(value)}`)
  }
  return value
}

function limitsOf(options: RateLimitOptions): Limits {
  return {
    max: positiveInteger('maxRequests', options.maxRequests, 100),
    windowMs: positiveInteger('windowMs', options.windowMs, 60_000),
    store: options.store ?? new MemoryStore(),
    key: options.key ?? ((req) => req.peer),
    headers: options.headers ?? true,
  }
}

export const rateLimitPlugin = definePlugin<RateLimitOptions, Limits>({
  name: 'rate-limit',
  info: {
    title: 'Rate limit',
    version: '1.0.0',
    author: 'Vela',
    description: 'Limits requests per peer IP in a fixed window; over the limit is a 429 with Retry-After',
    options: {
      maxRequests: 'requests served per window and client (default 100)',
      windowMs: 'window length in milliseconds (default 60000)',
      store: 'counter store: memory (default) or a RedisStore shared by instances',
      key: 'function of the request giving the client key (default: peer IP)',
      headers: 'send RateLimit-Limit / -Remaining / -Reset (default true)',
    },
  },
  // Options are checked and the store made once per registration, at start-up.
  init: (options) => limitsOf(options),
  async preRequest(req, _env, _options, limits) {
    const { count, resetAt } = await limits.store.increment(limits.key(req), limits.windowMs)
    const secondsLeft = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
    const headers: Record<string, string> = limits.headers
      ? { 'ratelimit-limit': String(limits.max), 'ratelimit-remaining': String(Math.max(0, limits.max - count)), 'ratelimit-reset': String(secondsLeft) }
      : {}
    if (count > limits.max) {
      const error = `Too Many Requests - rate limit exceeded, retry in ${secondsLeft} s`
      return stop(json(429, { ...headers, 'retry-after': String(secondsLeft) }, { error }))
    }
    if (limits.headers) {
      const out = req.event.res.headers
      for (const name in headers) out.set(name, headers[name]!)
    }
    return ok(req)
  },
})

export { MemoryStore } from './memory-store.ts'
export type { MemoryStoreOptions } from './memory-store.ts'
export { RedisStore } from './redis-store.ts'
export type { RedisStoreOptions } from './redis-store.ts'
export type { RateLimitHit, RateLimitStore } from './store.ts'
