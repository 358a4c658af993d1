/**
 * The Redis session store: every instance pointing at one Redis sees every revocation, so a
 * cookie logged out on one instance is refused by all. One key per revoked session, written with
 * an expiry at the end of the session's absolute lifetime: Redis forgets it by itself when the
 * cookie could no longer be used anyway. A lookup is one `EXISTS` per request carrying a session.
 * A Redis that cannot answer makes the request fail (a 500): a session is never let in unchecked.
 */
import type { Redis } from 'ioredis'
import { VelaError } from '../../errors/vela-error.ts'
import type { SessionStore } from './store.ts'

/** Options of `new RedisSessionStore(...)`: the ioredis client and the key prefix. */
export interface RedisSessionStoreOptions {
  /** An ioredis client; the app owns it (close it in the app's `stop` hook). */
  client: Redis
  /** Prepended to every key (default `vela:session:revoked:`), so several apps can share one Redis. */
  prefix?: string
}

/**
 * Revoked sessions in Redis, shared by every instance of the app.
 *
 * ```ts
 * import { Redis } from 'ioredis'
 * import { RedisSessionStore, sessionPlugin } from 'vela'
 *
 * const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 })
 * export const session = sessionPlugin({ store: new RedisSessionStore({ client, prefix: 'myapp:session:' }) })
 * ```
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: Redis
  readonly prefix: string

  constructor(options: RedisSessionStoreOptions) {
    if (!options?.client)
      throw new VelaError('VELA_ERR_PLUGIN', 'RedisSessionStore: `client` (an ioredis client) is required')
    this.#client = options.client
    this.prefix = options.prefix ?? 'vela:session:revoked:'
  }

  async revoke(id: string, _issuedAt: number, expiresAt: number): Promise<void> {
    const ttl = Math.ceil(expiresAt - Date.now())
    if (ttl > 0) await this.#client.set(this.prefix + id, '1', 'PX', ttl)
  }

  async isRevoked(id: string): Promise<boolean> {
    return (await this.#client.exists(this.prefix + id)) === 1
  }
}
