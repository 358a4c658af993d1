/**
 * The in-memory rate-limit store: one process, one Map. Expired windows are swept at most once
 * per `sweepEveryMs` (by the increment that notices the time has come, no timer to leak), so the
 * map holds the keys seen in roughly the last window.
 *
 * Keys are client input (a username field can take any value), so the map also has a hard cap,
 * `maxKeys`: a new key arriving when it is full drops the window that started longest ago (O(1):
 * the map is kept in start order), as nginx's `limit_req` zones drop their oldest states when
 * full. The cap bounds memory whatever clients send; its cost is that a flood of distinct keys
 * can end the oldest windows early, so size it above the keys one window normally sees.
 */
import { warnDeprecated } from '../../deprecation.ts'
import type { RateLimitHit, RateLimitStore } from './store.ts'

/** Options of `new MemoryRateLimitStore(...)`. */
export interface MemoryRateLimitStoreOptions {
  /** Clock, for tests (default `Date.now`). */
  now?: () => number
  /** How often expired windows are dropped (default 60 s). */
  sweepEveryMs?: number
  /** The most keys held at once (default 100,000: tens of MiB at most). */
  maxKeys?: number
}

interface Window {
  count: number
  resetAt: number
}

/**
 * Rate-limit counters in this process's memory: the plugin's default store.
 *
 * Bounded by `maxKeys`; each registration gets its own unless one is passed as `store`.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // In the order windows started (a renewed window is moved to the end): the first is the oldest.
  readonly #windows = new Map<string, Window>()
  readonly #now: () => number
  readonly #sweepEveryMs: number
  readonly #maxKeys: number
  #nextSweep: number

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#now = options.now ?? Date.now
    this.#sweepEveryMs = options.sweepEveryMs ?? 60_000
    this.#maxKeys = Math.max(1, options.maxKeys ?? 100_000)
    this.#nextSweep = this.#now() + this.#sweepEveryMs
  }

  /** Keys currently held (expired ones included until the next sweep). */
  get size(): number {
    return this.#windows.size
  }

  increment(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.#now()
    if (now >= this.#nextSweep) this.sweep(now)
    let w = this.#windows.get(key)
    if (!w || w.resetAt <= now) {
      if (w) this.#windows.delete(key)
      else if (this.#windows.size >= this.#maxKeys) this.#dropOldest()
      w = { count: 0, resetAt: now + windowMs }
      this.#windows.set(key, w)
    }
    w.count++
    return Promise.resolve({ count: w.count, resetAt: w.resetAt })
  }

  /** Drops every window that has ended. */
  sweep(now = this.#now()): void {
    for (const [key, w] of this.#windows) if (w.resetAt <= now) this.#windows.delete(key)
    this.#nextSweep = now + this.#sweepEveryMs
  }

  #dropOldest(): void {
    const oldest = this.#windows.keys().next().value
    if (oldest !== undefined) this.#windows.delete(oldest)
  }
}

/**
 * The older name of `MemoryRateLimitStoreOptions`.
 *
 * @deprecated Use `MemoryRateLimitStoreOptions`.
 */
export type MemoryStoreOptions = MemoryRateLimitStoreOptions

/**
 * The older name of `MemoryRateLimitStore`.
 *
 * @deprecated Use `MemoryRateLimitStore` (session stores are `MemorySessionStore`).
 */
export class MemoryStore extends MemoryRateLimitStore {
  constructor(options: MemoryRateLimitStoreOptions = {}) {
    warnDeprecated(
      'VELA_DEP_MEMORY_STORE',
      'MemoryStore is deprecated: the rate-limit memory store is MemoryRateLimitStore',
    )
    super(options)
  }
}
