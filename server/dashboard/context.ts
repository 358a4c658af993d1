/**
 * The request being recorded, per async context, and the hooks that attach to it what runs
 * during the request: `vela/dbl`'s queries and the lines written to the console. Kept on
 * `globalThis` under registered symbols: in development the app's modules are evaluated by Vite's
 * module runner, so the dev server's copy of this module and the app's copy of `vela/dbl` may be
 * two module instances; the symbols make them meet.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { format } from 'node:util'
import type { LogRecord, RequestRecord } from './record.ts'
import { LIMITS, cut } from './record.ts'

/** A request being recorded, and when it started (`performance.now()`). */
export interface Recording {
  readonly record: RequestRecord
  readonly started: number
  /** Whether query parameters are kept (otherwise `[redacted]`). */
  readonly params: boolean
}

/** What `vela/dbl` calls around each query (see dbl/repo/query-recorder.ts): the end callback, or nothing. */
export interface QueryRecorder {
  start(
    sql: string,
    params: readonly unknown[],
    label: string | undefined,
  ): ((rows: number, error?: unknown) => void) | undefined
}

const kStorage = Symbol.for('vela.dashboard.storage')
const kQueries = Symbol.for('vela.dashboard.queries')
type Globals = { [kStorage]?: AsyncLocalStorage<Recording>; [kQueries]?: QueryRecorder }
const globals = globalThis as Globals

/** The one storage every copy of this module shares. */
export const recordings: AsyncLocalStorage<Recording> = (globals[kStorage] ??= new AsyncLocalStorage<Recording>())

const showParam = (value: unknown): string =>
  cut(
    typeof value === 'string'
      ? value
      : value instanceof Date
        ? value.toISOString()
        : (safeJson(value) ?? String(value)),
    LIMITS.param,
  )

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  } catch {
    return undefined
  }
}

const queries: QueryRecorder = {
  start(sql, params, label) {
    const current = recordings.getStore()
    if (!current || current.record.spans.length >= LIMITS.spans) return undefined
    const startMs = performance.now() - current.started
    const span = {
      kind: 'query' as const,
      name: label ?? 'db.query',
      startMs,
      durationMs: 0,
      sql: cut(sql, LIMITS.sql),
      params: current.params ? params.slice(0, LIMITS.params).map(showParam) : params.map(() => '[redacted]'),
    }
    current.record.spans.push(span)
    return (rows, error) => {
      span.durationMs = performance.now() - current.started - startMs
      if (error === undefined) Object.assign(span, { rows })
      else Object.assign(span, { error: error instanceof Error ? error.message : String(error) })
    }
  },
}

const LEVELS = ['debug', 'info', 'log', 'warn', 'error'] as const
const kConsole = Symbol.for('vela.dashboard.console')

/** Process-wide: how many dashboards are attached, and the console methods they replaced. */
interface Attached {
  users: number
  originals: Map<(typeof LEVELS)[number], (...args: unknown[]) => void>
  wrappers: Map<(typeof LEVELS)[number], (...args: unknown[]) => void>
}
const attached: Attached = ((globalThis as { [kConsole]?: Attached })[kConsole] ??= {
  users: 0,
  originals: new Map(),
  wrappers: new Map(),
})

/**
 * Starts attaching queries and console lines to the request being recorded; returns the function
 * that stops it. Nothing is attached outside a recorded request. Several dev servers in one
 * process share one set of console wrappers; the last to stop restores the console methods that
 * are still the wrappers (one replaced since, e.g. by a test's spy, stays, and only forwards).
 */
export function attachToRequests(): () => void {
  globals[kQueries] = queries
  if (attached.users++ === 0) {
    for (const level of LEVELS) {
      const original = console[level]
      const wrapper = function recorded(this: Console, ...args: unknown[]) {
        const current = attached.users > 0 ? recordings.getStore() : undefined
        if (current && current.record.logs.length < LIMITS.logs) {
          const line: LogRecord = {
            atMs: performance.now() - current.started,
            level,
            message: cut(format(...args), LIMITS.message),
          }
          current.record.logs.push(line)
        }
        return original.apply(this, args)
      }
      attached.originals.set(level, original)
      attached.wrappers.set(level, wrapper)
      console[level] = wrapper
    }
  }
  let done = false
  return () => {
    if (done) return
    done = true
    if (--attached.users > 0) return
    if (globals[kQueries] === queries) delete globals[kQueries]
    for (const level of LEVELS)
      if (console[level] === attached.wrappers.get(level)) console[level] = attached.originals.get(level)!
  }
}
