/**
 * Repeated log lines coalesced, so that a client cannot write thousands of lines a second by
 * failing requests. Lines with the same key are one kind: the first is written in full (its
 * error's stack included); the next ones within `windowMs` (default 10 s) are only counted, and
 * when the window closes one line says how many there were: `<first line> … and 523 more like
 * this in the last 10 s`. The runtime gives each line it logs for a request a key made of the
 * status, the method and route pattern, and the error's kind (`logKey`), never the path the
 * client sent, so varying the path defeats nothing; a line without a key is its own key.
 *
 * Bounded: at most `maxKinds` (default 1,000) kinds are tracked at once; lines of further kinds in
 * that time are counted together and reported in one line of their own. Each kind costs one
 * unref'd timer while its window is open.
 *
 * **Choice:** the app's default log (to stderr) is coalesced; a `log` passed to `createApp`
 * receives every line with its key as a third argument, so tests see each line and an app can
 * wrap its own logger in `coalesceLog` to get the same. `flush()` (the app's `stop()`) writes the
 * counts of windows still open.
 */
import type { RequestFacts } from '../contracts/request.ts'

/**
 * A log as the runtime calls it: the message, the error if any, the line's kind, and for a line a
 * request writes, that request (its `id`, method, path…).
 */
export type KeyedLog = (message: string, error: unknown, key?: string, request?: RequestFacts) => void

/** Where a coalescing log writes: the line, its error, and the request it is about, if any. */
export type LogSink = (message: string, error: unknown, request?: RequestFacts) => void

/** Options of `coalesceLog`: the window repeated lines are counted in, and how many kinds are tracked. */
export interface CoalesceLogOptions {
  /** How long after a kind's first line identical ones are counted instead of written (default 10,000 ms). */
  windowMs?: number
  /** Kinds tracked at once (default 1,000); lines of others meanwhile are counted together. */
  maxKinds?: number
}

/** A coalescing log (`log`) and the means to write the counts still pending (`flush`). */
export interface CoalescingLog {
  readonly log: KeyedLog
  /** Writes the summary of every open window that counted lines, and closes them all. */
  flush(): void
}

interface Window {
  readonly message: string
  count: number
  readonly timer: ReturnType<typeof setTimeout>
}

const OVERFLOW = Symbol('vela.log.overflow')

/**
 * Wraps `sink` so that repeated lines of one kind are written once per window, then counted.
 *
 * @example
 * ```ts
 * import { coalesceLog, createApp } from 'vela'
 * import config from './app.ts'
 *
 * const { log, flush } = coalesceLog((message, error, request) => console.error(JSON.stringify({ message, error: String(error ?? ''), requestId: request?.id })), { windowMs: 30_000 })
 * const app = createApp(config, { log })
 * process.once('beforeExit', flush)
 * ```
 */
export function coalesceLog(sink: LogSink, opts: CoalesceLogOptions = {}): CoalescingLog {
  const windowMs = opts.windowMs ?? 10_000
  const maxKinds = opts.maxKinds ?? 1000
  const seconds = `${Math.round(windowMs / 100) / 10} s`
  const open = new Map<string | typeof OVERFLOW, Window>()

  const close = (key: string | typeof OVERFLOW) => {
    const w = open.get(key)
    if (!w) return
    open.delete(key)
    clearTimeout(w.timer)
    if (w.count === 0) return
    if (key === OVERFLOW)
      sink(
        `… and ${w.count} more lines of other kinds in the last ${seconds} (over ${maxKinds} kinds of line at once)`,
        undefined,
      )
    else sink(`${w.message} … and ${w.count} more like this in the last ${seconds}`, undefined)
  }
  const start = (key: string | typeof OVERFLOW, message: string, count: number) => {
    const timer = setTimeout(() => close(key), windowMs)
    timer.unref?.()
    open.set(key, { message, count, timer })
  }

  return {
    log(message, error, key = message, request) {
      const w = open.get(key)
      if (w) {
        w.count++
        return
      }
      if (open.size - (open.has(OVERFLOW) ? 1 : 0) >= maxKinds) {
        const overflow = open.get(OVERFLOW)
        if (overflow) overflow.count++
        else start(OVERFLOW, '', 1)
        return
      }
      start(key, message, 0)
      sink(message, error, request)
    },
    flush() {
      for (const key of [...open.keys()]) close(key)
    },
  }
}

/**
 * A log line's kind from what identifies it and the error's kind (its `code`, else its class):
 * `logKey('500', 'GET /notes/:id', err)` → `500 GET /notes/:id TypeError`.
 */
export function logKey(what: string, error: unknown): string {
  if (error === undefined) return what
  const e = error as { code?: unknown; constructor?: { name?: unknown } } | null
  const kind =
    typeof e?.code === 'string' ? e.code : typeof e?.constructor?.name === 'string' ? e.constructor.name : typeof error
  return `${what} ${kind}`
}
