/**
 * What the development dashboard keeps of one request: its facts, its outcome, the log lines and
 * database queries it made, as plain data (JSON-ready). Types and the size limits only.
 */
import type { PluginStepReport, SecurityReport } from '../pipeline/observer.ts'

/** One span of a request's waterfall: the request itself, or a database query made during it. */
export interface SpanRecord {
  readonly kind: 'request' | 'query'
  readonly name: string
  /** Milliseconds from the request's start. */
  readonly startMs: number
  durationMs: number
  /** Queries: the SQL (truncated), its parameters (truncated, or `[redacted]`), the rows returned. */
  readonly sql?: string
  readonly params?: readonly string[]
  rows?: number
  error?: string
}

/** One line written (console or the app's log) while the request ran. */
export interface LogRecord {
  /** Milliseconds from the request's start. */
  readonly atMs: number
  readonly level: 'debug' | 'info' | 'log' | 'warn' | 'error'
  readonly message: string
}

/** What a plugin step came to (the pipeline's report, kept as reported). */
export type { StepOutcome } from '../pipeline/observer.ts'
/** One plugin that ran during the request, in the order they ran. */
export type PluginStepRecord = PluginStepReport
/** The group's security callback: its name and its verdict. */
export type SecurityRecord = SecurityReport

/** One request as the dashboard lists and shows it. */
export interface RequestRecord {
  /** The request's id: `req.id` when the runtime gives one, else the store's own (`r1`, `r2`…). */
  readonly id: string
  /** Wall-clock start (epoch milliseconds). */
  readonly startedAt: number
  readonly method: string
  readonly path: string
  /** The query string, secret values redacted; undefined when there is none. */
  readonly query: string | undefined
  /** The client's address as seen on the socket. */
  readonly client: string | undefined
  /** Request headers, secrets redacted. */
  readonly headers: readonly (readonly [string, string])[]
  route?: { path: string; controller: string; action: string; prefix: string }
  status?: number
  durationMs?: number
  /** Response body bytes sent. */
  size?: number
  /** What the route threw (a 500), or the stream handler that failed. */
  error?: { name: string; message: string; stack?: string }
  readonly logs: LogRecord[]
  readonly spans: SpanRecord[]
  /** The plugins that ran, in order (pre then post). */
  readonly plugins: PluginStepRecord[]
  security?: SecurityRecord
  /** Response headers as sent, secrets redacted; undefined until the response went out. */
  responseHeaders?: readonly (readonly [string, string])[]
  /** Approximate bytes the record holds (what the store's byte bound counts). */
  bytes: number
}

/** The cuts that keep one record small. */
export const LIMITS = {
  sql: 4096,
  param: 256,
  params: 50,
  header: 1024,
  message: 4096,
  stack: 8192,
  logs: 200,
  spans: 500,
  plugins: 100,
  headers: 100,
} as const

/** `text` cut to `max` characters, marked when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`
}
