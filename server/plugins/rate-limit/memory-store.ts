/**
 * The in-memory rate-limit store: one process, one Map. Expired windows are swept at most once
 * per `sweepEveryMs` (by the increment that notices the time has come, no timer to leak), so the
 * map holds the keys seen in roughly the last window and never grows without bound.
 */
import type { RateLimitHit, RateLimitStore } from './store.ts'

export interface MemoryStoreOptions {
  /** Clock, for tests (default `Date.now`). */
  now?: () => number
  /** How often expired windows are dropped (default 60 s). */
  sweepEveryMs?: number
}

interface Window {
  count: number
  resetAt: number
}

export class MemoryStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>()
  readonly #now: () => number
  readonly #sweepEveryMs: number
  #nextSweep: number

  constructor(options: MemoryStoreOptions = {}) {
    this.#now = options.now ?? Date.now
    this.#sweepEveryMs = options.sweepEveryMs ?? 60_000
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
}
