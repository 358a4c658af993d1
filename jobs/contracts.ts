/** What `enqueue` takes and gives: shared by the job (define.ts) and the runtime it reaches (registry.ts). Types only. */

/** Options of `enqueue`: when to run, a key that keeps one pending run, and a priority. */
export interface EnqueueOptions {
  /** Not before this time (a `Date`, or ms from now). */
  readonly runAt?: Date | number
  /**
   * At most one pending run per key: enqueueing again with a key that is still waiting to run
   * updates that run (its args, `runAt`, priority) instead of adding a second one.
   */
  readonly key?: string
  /** Higher runs first (default 0). */
  readonly priority?: number
}

/** A run `enqueue` inserted, or the pending one its `key` matched. */
export interface EnqueuedJob {
  readonly id: string
  /** True when `key` matched a pending run, which was updated rather than a new one added. */
  readonly existing: boolean
}

/** What draining the queues did: how many runs completed and how many failed. */
export interface DrainResult {
  readonly completed: number
  readonly failed: number
}
