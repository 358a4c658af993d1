/**
 * Bounded concurrency: at most `size` tasks run at once, up to `maxQueued` more wait their turn in
 * arrival order, and a task arriving beyond that is refused at once (its `onFull` error) instead
 * of joining a queue that could grow without bound. Used to keep password hashing off most of
 * libuv's thread pool (scrypt.ts).
 */
export interface LaneLimits {
  /** Tasks running at once (at least 1). */
  readonly concurrency: number
  /** Tasks waiting at most; one more is refused. */
  readonly maxQueued: number
}

export class Lanes {
  #running = 0
  readonly #waiting: (() => void)[] = []
  #head = 0

  #limits: LaneLimits

  constructor(limits: LaneLimits) {
    this.#limits = limits
  }

  get limits(): LaneLimits {
    return this.#limits
  }
  /** New limits; more lanes start waiting tasks at once, fewer take effect as running tasks end. */
  set limits(limits: LaneLimits) {
    this.#limits = limits
    while (this.#running < limits.concurrency && this.queued > 0) {
      this.#running++
      this.#wake()
    }
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running
  }
  /** Tasks waiting for a lane. */
  get queued(): number {
    return this.#waiting.length - this.#head
  }

  /** Runs `task` in a free lane, after the tasks queued before it; `onFull()` is thrown when the queue is full. */
  async run<T>(task: () => Promise<T>, onFull: () => Error): Promise<T> {
    if (this.#running < this.#limits.concurrency && this.queued === 0) this.#running++
    else if (this.queued >= this.#limits.maxQueued) throw onFull()
    // The lane is handed over with `#running` already counting it (#release), so a task arriving
    // between the hand-over and this one resuming cannot take it too.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve))
    try {
      return await task()
    } finally {
      this.#release()
    }
  }

  #release(): void {
    if (this.queued === 0 || this.#running > this.#limits.concurrency) {
      this.#running--
      return
    }
    this.#wake()
  }

  /** Resumes the longest-waiting task. */
  #wake(): void {
    const resolve = this.#waiting[this.#head++]!
    // A FIFO read from #head (no shift() per task), emptied when drained and compacted now and then.
    if (this.#head === this.#waiting.length) {
      this.#waiting.length = 0
      this.#head = 0
    } else if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting.splice(0, this.#head)
      this.#head = 0
    }
    resolve()
  }
}
