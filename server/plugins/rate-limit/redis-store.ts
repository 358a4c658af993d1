/**
 * The Redis rate-limit store: all instances pointing at one Redis share one counter per key.
 * One Lua script does INCR, sets the window's expiry on the first hit and reads the time left,
 * atomically, so two instances racing on a fresh key cannot both start a window, and a key can
 * never be left without an expiry (which would block a client forever). The script is sent once
 * and then called by its SHA.
 */
import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { warnDeprecated } from '../../deprecation.ts'
import type { RateLimitHit, RateLimitStore } from './store.ts'
import { VelaError } from '../../errors/vela-error.ts'

/** Options of `new RedisRateLimitStore(...)`: the ioredis client and the key prefix. */
export interface RedisRateLimitStoreOptions {
  /** A connected ioredis client; the app owns it (close it in the app's `stop` hook). */
  client: Redis
  /** Prepended to every key (default `vela:rl:`), so several apps can share one Redis. */
  prefix?: string
}

// KEYS[1] = counter, ARGV[1] = window in ms. Returns { count, ms left }.
const SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`
const SHA = createHash('sha1').update(SCRIPT).digest('hex')

/**
 * Rate-limit counters in Redis, shared by every instance of the app pointing at it.
 *
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisRateLimitStore, rateLimitPlugin } from 'vela'
 *
 * const store = new RedisRateLimitStore({ client: new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') })
 * export const limited = [rateLimitPlugin({ maxRequests: 100, windowMs: 60_000, store })]
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis
  readonly prefix: string

  constructor(options: RedisRateLimitStoreOptions) {
    if (!options?.client)
      throw new VelaError('VELA_ERR_PLUGIN', 'RedisRateLimitStore: `client` (an ioredis client) is required')
    this.#client = options.client
    this.prefix = options.prefix ?? 'vela:rl:'
  }

  async increment(key: string, windowMs: number): Promise<RateLimitHit> {
    const k = this.prefix + key
    let out: unknown
    try {
      out = await this.#client.evalsha(SHA, 1, k, windowMs)
    } catch (err) {
      // First call on this Redis (or after SCRIPT FLUSH): send the script itself, which caches it.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err
      out = await this.#client.eval(SCRIPT, 1, k, windowMs)
    }
    const [count, ttl] = out as [number, number]
    return { count, resetAt: Date.now() + ttl }
  }
}

/**
 * The older name of `RedisRateLimitStoreOptions`.
 *
 * @deprecated Use `RedisRateLimitStoreOptions`.
 */
export type RedisStoreOptions = RedisRateLimitStoreOptions

/**
 * The older name of `RedisRateLimitStore`.
 *
 * @deprecated Use `RedisRateLimitStore` (session stores are `RedisSessionStore`).
 */
export class RedisStore extends RedisRateLimitStore {
  constructor(options: RedisRateLimitStoreOptions) {
    warnDeprecated(
      'VELA_DEP_REDIS_STORE',
      'RedisStore is deprecated: the rate-limit Redis store is RedisRateLimitStore',
    )
    super(options)
  }
}
