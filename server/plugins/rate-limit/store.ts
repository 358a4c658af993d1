/**
 * Where the rate-limit plugin keeps its counters. A store counts hits per key in fixed windows:
 * the first hit of a key opens a window of `windowMs`; every hit until `resetAt` adds one; the
 * first hit after it opens a new window. Several app instances share one limit by sharing a store
 * (the Redis store); the memory store limits one process.
 */
/** Where a key stands in its window after a hit: the hits so far and when the window ends. */
export interface RateLimitHit {
  /** Hits in the current window, this one included (1 for the first). */
  readonly count: number
  /** Epoch milliseconds at which the current window ends. */
  readonly resetAt: number
}

/** A place the rate-limit plugin counts hits in (`MemoryRateLimitStore`, `RedisRateLimitStore`, or an app's own). */
export interface RateLimitStore {
  /** Counts one hit for `key` and says where the key stands in its window. */
  increment(key: string, windowMs: number): Promise<RateLimitHit>
}
