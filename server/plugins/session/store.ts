/**
 * Where the session plugin records revoked sessions. A sealed cookie is valid by itself, so
 * ending a session before its lifetime means remembering its id until that lifetime is over: a
 * copy of the cookie (another tab, a stolen one) is refused meanwhile. The plugin revokes a
 * session when a handler empties it (logout) or replaces it (`renewSession`, at login), and asks
 * the store on every request that carries a session.
 *
 * A record is needed only until the session's absolute lifetime ends (`expiresAt`); after that
 * the cookie is refused anyway, so every store may forget it then.
 *
 * The memory store (the default, one per process, shared by every registration of the plugin)
 * serves one process; instances behind a load balancer, or `VELA_WORKERS` > 1, share revocations
 * through a shared store (`RedisSessionStore`, redis-store.ts).
 */
import type { MaybePromise } from '../../contracts/primitives.ts'

/** A place to record ended sessions: the memory store by default, Redis for several instances. */
export interface SessionStore {
  /** Records that the session `id` (started at `issuedAt`) has ended; the record may go at `expiresAt` (epoch ms). */
  revoke(id: string, issuedAt: number, expiresAt: number): MaybePromise<void>
  /** Whether the session `id` (started at `issuedAt`) has ended. */
  isRevoked(id: string, issuedAt: number): MaybePromise<boolean>
}

/** Options of `new MemorySessionStore(...)`: how many revoked sessions it keeps. */
export interface MemorySessionStoreOptions {
  /** How many revoked sessions are kept at most (default 100,000); see the class's doc. */
  maxEntries?: number
}

/**
 * Revoked sessions in this process's memory, each until its absolute lifetime ends.
 * Bounded: past `maxEntries`, the oldest record goes, and every session started at or before the
 * one it named counts as revoked from then on (those users log in again). Dropping a record never
 * lets its session back in: a flood of logouts costs early logouts, not a revived cookie.
 *
 * ```ts
 * import { MemorySessionStore, sessionPlugin } from 'vela'
 *
 * export const session = sessionPlugin({ store: new MemorySessionStore({ maxEntries: 10_000 }) })
 * ```
 */
export class MemorySessionStore implements SessionStore {
  readonly maxEntries: number
  // In insertion order: the first is the oldest record.
  readonly #revoked = new Map<string, { readonly issuedAt: number; readonly expiresAt: number }>()
  // Sessions started at or before this time are revoked (raised when a record is dropped for room).
  #startedBefore = Number.NEGATIVE_INFINITY

  constructor(options: MemorySessionStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000
  }

  /** Records kept now. */
  get size(): number {
    return this.#revoked.size
  }

  revoke(id: string, issuedAt: number, expiresAt: number): void {
    const now = Date.now()
    if (expiresAt <= now) return
    this.#forgetExpired(now)
    this.#revoked.delete(id)
    this.#revoked.set(id, { issuedAt, expiresAt })
    if (this.#revoked.size > this.maxEntries) {
      const [oldest, record] = this.#revoked.entries().next().value!
      this.#revoked.delete(oldest)
      this.#startedBefore = Math.max(this.#startedBefore, record.issuedAt)
    }
  }

  isRevoked(id: string, issuedAt: number): boolean {
    if (issuedAt <= this.#startedBefore) return true
    const record = this.#revoked.get(id)
    return record !== undefined && record.expiresAt > Date.now()
  }

  // Records expire in roughly insertion order: drop the expired ones at the front.
  #forgetExpired(now: number): void {
    for (const [id, record] of this.#revoked) {
      if (record.expiresAt > now) return
      this.#revoked.delete(id)
    }
  }
}
