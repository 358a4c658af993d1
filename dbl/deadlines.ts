/**
 * How long the repository waits for its database, so that a database that is down, frozen or
 * overloaded costs a request a bounded wait and a `DbUnavailableError` (unavailable.ts), never a
 * hang. Options of `defineRepo` and of the adapters; every one in milliseconds, `0` = no deadline.
 *
 * | option | default | what it bounds |
 * |---|---|---|
 * | `connectTimeoutMs` | 5000 | a new `pg` connection's start-up: TCP, TLS, authentication |
 * | `acquireTimeoutMs` | 5000 | waiting for a connection: a free pooled one (`pg`, connecting included), or PGlite's turn (its queries run one at a time) |
 * | `statementTimeoutMs` | 30000 | one statement: PostgreSQL's `statement_timeout` (the server cancels it); the client gives up 1 s later if no answer comes at all (a frozen server, a cut network) |
 * | `idleTimeoutMs` | 10000 | how long an idle pooled `pg` connection is kept |
 *
 * **Choices.** 5 s to connect or to get a connection: far above a healthy wait (under a
 * millisecond on a LAN, a few with TLS), short enough for a load balancer's retry to be useful.
 * 30 s per statement: long enough for reports and batch updates, while a runaway query or a frozen
 * server frees its connection. Sessions (`adapter.session`, used by the migrator under its advisory
 * lock) run without the statement deadline: a migration or a wait for another instance's migration
 * may legitimately take minutes. PGlite runs in-process, so only the wait for its turn is bounded:
 * a statement it is running cannot be interrupted.
 */

/** How long the repository waits to connect, for a connection and for a statement, in milliseconds (`0` = no deadline). */
export interface DeadlineOptions {
  /** A new `pg` connection's start-up (TCP, TLS, authentication). Default 5000 ms; 0 = none. */
  readonly connectTimeoutMs?: number
  /** Waiting for a connection: a free pooled one (`pg`), or PGlite's turn. Default 5000 ms; 0 = none. */
  readonly acquireTimeoutMs?: number
  /** PostgreSQL's `statement_timeout`; the client stops waiting 1 s after it (`pg` only). Default 30000 ms; 0 = none. */
  readonly statementTimeoutMs?: number
  /** Idle pooled `pg` connections are closed after this. Default 10000 ms; 0 = kept. */
  readonly idleTimeoutMs?: number
}

export interface Deadlines {
  readonly connectTimeoutMs: number
  readonly acquireTimeoutMs: number
  readonly statementTimeoutMs: number
  readonly idleTimeoutMs: number
  /** When the client stops waiting for any answer: the statement timeout plus `ANSWER_GRACE_MS` (0 = never). */
  readonly answerTimeoutMs: number
}

/** The deadlines a repository uses for the options it is not given, in milliseconds. */
export const DEFAULT_DEADLINES = {
  connectTimeoutMs: 5000,
  acquireTimeoutMs: 5000,
  statementTimeoutMs: 30_000,
  idleTimeoutMs: 10_000,
} as const

/** The server's own cancellation (a proper SQLSTATE 57014 answer) should win over the client giving up. */
export const ANSWER_GRACE_MS = 1000

const keys = Object.keys(DEFAULT_DEADLINES) as (keyof typeof DEFAULT_DEADLINES)[]

/** The options with their defaults; a value that is not a non-negative integer throws, naming the key. */
export function resolveDeadlines(opts: DeadlineOptions, where = 'defineRepo'): Deadlines {
  const out = { ...DEFAULT_DEADLINES } as Record<keyof typeof DEFAULT_DEADLINES, number>
  for (const key of keys) {
    const v = opts[key]
    if (v === undefined) continue
    // setTimeout's limit: larger values fire at once.
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 2 ** 31 - 1) {
      throw Object.assign(
        new Error(`${where}: ${key} must be a whole number of milliseconds (0 = no deadline), got ${String(v)}`),
        { code: 'VELA_ERR_CONFIG' },
      )
    }
    out[key] = v
  }
  return { ...out, answerTimeoutMs: out.statementTimeoutMs ? out.statementTimeoutMs + ANSWER_GRACE_MS : 0 }
}
