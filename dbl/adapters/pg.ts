/**
 * A PostgreSQL server through a `pg` pool, with deadlines (deadlines.ts): a new connection must be
 * up within `connectTimeoutMs`, a caller waits at most `acquireTimeoutMs` for a pooled one, and a
 * statement runs at most `statementTimeoutMs` (PostgreSQL's `statement_timeout`, with `pg`'s
 * `query_timeout` a grace later for a server that does not answer at all). Every failure that is
 * about the database's availability rather than the statement is thrown as a `DbUnavailableError`
 * naming `host:port` (unavailable.ts); the server's other errors pass through unchanged.
 *
 * **Sent or not.** A statement counts as sent once it is handed to an established connection
 * (pg writes it at once: each pooled client serves one caller, one statement at a time). Failing
 * to get a connection (acquire or connect deadline, refused, reset while connecting) is never
 * "sent": a `DbUnavailableError`, nothing applied. A sent statement that gets no answer (the
 * answer deadline passed, or the connection broke under it) may have been applied: a
 * `DbOutcomeUnknownError` for a statement on its own (autocommit: it commits by itself) and for a
 * transaction's `COMMIT`. Inside a transaction, any other statement's failure is a
 * `DbUnavailableError`: its connection is destroyed without a `COMMIT`, so the server rolls the
 * whole transaction back.
 *
 * A connection that failed that way sends nothing more (a later statement on it, a `COMMIT`
 * included, fails with the same error) and is destroyed, not returned to the pool: it may still
 * have a statement in flight, or no server behind it.
 *
 * A statement on its own (`adapter.query`, every repository read and write outside a transaction)
 * is one promise from acquiring a client to releasing it: the pool and the driver are driven
 * through their callbacks. The driver's errors therefore keep the stack they were made with (its
 * protocol parser or a timer), not one through the caller; the repository's `DbError` names the
 * caller's line.
 */
import { AsyncResource } from 'node:async_hooks'
import pg from 'pg'
import { resolveDeadlines, type DeadlineOptions } from '../deadlines.ts'
import { classify, DbOutcomeUnknownError, unanswered } from '../unavailable.ts'
import type { Adapter, Connection, QueryResult, Row } from './adapter.ts'

/** Where the PostgreSQL server is, the pool's size and the deadlines: `createPgAdapter`'s options. */
export interface PgAdapterOptions extends DeadlineOptions {
  /** `postgres://user:pass@host:port/db`; wins over the separate fields. */
  url?: string
  database?: string
  hostname?: string
  port?: number
  username?: string
  password?: string
  /** Pool size (default 10). */
  poolSize?: number
}

// Return bigint (count(*), bigserial) as numbers and NUMERIC as strings only when needed: ids are
// 'id' = BIGSERIAL in our migrations, and JS code expects numbers for them.
pg.types.setTypeParser(20, (v: string) => Number(v))
// DATE stays a 'YYYY-MM-DD' string instead of a local-midnight Date.
pg.types.setTypeParser(1082, (v: string) => v)

/** `host:port` as messages name it: from the URL (or its `?host=` for a socket folder), else the fields. */
export function pgAddress(opts: Pick<PgAdapterOptions, 'url' | 'hostname' | 'port'>): string {
  if (opts.url) {
    const u = new URL(opts.url)
    return `${u.hostname || u.searchParams.get('host') || 'localhost'}:${u.port || 5432}`
  }
  return `${opts.hostname ?? '127.0.0.1'}:${opts.port ?? 5432}`
}

/**
 * The driver's answer as a `QueryResult`. A script (several statements, no parameters: a job
 * engine's install SQL) answers with one result per statement: their rows are joined, so a
 * `RETURNING` in the middle is not lost behind a trailing `COMMIT`.
 */
function resultOf(res: pg.QueryResult | pg.QueryResult[]): QueryResult {
  if (!Array.isArray(res)) return { rows: res.rows, rowCount: res.rowCount ?? res.rows.length }
  const rows = res.flatMap((r) => r.rows ?? [])
  return { rows, rowCount: res.reduce((n, r) => n + (r.rowCount ?? 0), 0) }
}

// No deadline for a session's statements (see deadlines.ts): `pg` treats 0 as "use the default",
// so the largest delay setTimeout accepts stands for "none".
const NO_ANSWER_DEADLINE = 2 ** 31 - 1

/**
 * An adapter on a PostgreSQL server through a `pg` pool, with the deadlines of `DeadlineOptions`.
 * `defineRepo` makes one itself; create one to share a pool between repos or to run the migrator
 * on its own.
 *
 * @example
 * const adapter = createPgAdapter({ url: 'postgres://postgres@127.0.0.1:5432/app', poolSize: 5 })
 * const { rows } = await adapter.query('SELECT now() AS now')
 * await adapter.close()
 */
export function createPgAdapter(opts: PgAdapterOptions): Adapter {
  const d = resolveDeadlines(opts, 'createPgAdapter')
  const address = pgAddress(opts)
  const connectTimeoutMs = d.connectTimeoutMs
  // pg-pool hands its own options to every client it creates, where `connectionTimeoutMillis`
  // would mean the acquire deadline; this class gives the connection its own.
  class DeadlineClient extends pg.Client {
    constructor(config: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs })
      // A client emits 'error' when its connection breaks outside a query, and an unheard 'error'
      // crashes the process. The pool listens only while a client is idle, and hands a client
      // from one user to the next synchronously, inside the parser's loop: a server's last words
      // (57P01 "terminating connection") read in the same chunk as the previous answer reach a
      // client nobody listens to yet. Queries learn of the failure through their own callbacks.
      this.on('error', () => {})
    }
  }
  const common = {
    max: opts.poolSize ?? 10,
    Client: DeadlineClient as unknown as new () => pg.ClientBase,
    connectionTimeoutMillis: d.acquireTimeoutMs,
    idleTimeoutMillis: d.idleTimeoutMs,
    statement_timeout: d.statementTimeoutMs || undefined,
    query_timeout: d.answerTimeoutMs || undefined,
  }
  const pool = new pg.Pool(
    opts.url
      ? { ...common, connectionString: opts.url }
      : {
          ...common,
          host: opts.hostname ?? '127.0.0.1',
          port: opts.port ?? 5432,
          database: opts.database,
          user: opts.username,
          password: opts.password,
        },
  )
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const clients = new Set<pg.PoolClient>()
  pool.on('connect', (c) => clients.add(c))
  pool.on('remove', (c) => clients.delete(c))

  // Clients on which the database failed (lost, frozen, timed out), with the failure: they send
  // nothing more, and are destroyed on release.
  const failed = new WeakMap<pg.PoolClient, unknown>()
  const release = (client: pg.PoolClient) =>
    client.release(failed.has(client) ? new Error('vela.dbl: connection failed, not reused') : undefined)

  /**
   * One statement on an acquired client, answered through `done` exactly once. `alone`: it commits
   * by itself (autocommit, or a transaction's COMMIT), so an unanswered one may have been applied.
   * Callbacks rather than the driver's promises: every promise (and every `await`) runs
   * AsyncLocalStorage's hooks once telemetry or a transaction has turned them on, and a query
   * through the promise APIs of the pool and the driver made nine of them.
   */
  function send(
    client: pg.PoolClient,
    sql: string,
    params: readonly unknown[] | undefined,
    alone: boolean,
    answerTimeoutMs: number | undefined,
    done: (error: unknown, res?: QueryResult) => void,
  ): void {
    const earlier = failed.get(client)
    if (earlier) return done(earlier)
    let answered = false
    const callback = (e: Error | null, res: pg.QueryResult) => {
      if (answered) return
      answered = true
      if (!e) return done(undefined, resultOf(res))
      const u = classify(e, address, d)
      if (!u) return done(e)
      failed.set(client, u)
      done(alone && unanswered(e, u) ? new DbOutcomeUnknownError(u) : u)
    }
    try {
      if (answerTimeoutMs)
        client.query(
          { text: sql, values: params as unknown[] | undefined, query_timeout: answerTimeoutMs } as pg.QueryConfig,
          callback,
        )
      else client.query(sql, params as unknown[], callback)
    } catch (e) {
      // pg throws at once for a query it cannot take (no text): nothing was sent.
      callback(e as Error, undefined as never)
    }
  }

  /** `send` as a promise, for the statements of a transaction or session. */
  const run = <R extends Row>(
    client: pg.PoolClient,
    sql: string,
    params: readonly unknown[] | undefined,
    alone: boolean,
    answerTimeoutMs?: number,
  ) =>
    new Promise<QueryResult<R>>((resolve, reject) =>
      send(client, sql, params, alone, answerTimeoutMs, (e, res) => (e ? reject(e) : resolve(res as QueryResult<R>))),
    )

  /**
   * A pooled client for `use`, or why there is none for `failedToConnect` (never "sent"), called in
   * the caller's async context, as the code after an `await` would be. The pool hands a client over
   * from wherever it is released: inside another statement's answer, on a socket whose callbacks
   * run in the context of the request that opened it. Without this, what reads the context when
   * the statement is sent (OpenTelemetry's pg instrumentation, for its span's parent) would see
   * that request's.
   */
  function acquire(use: (client: pg.PoolClient) => void, failedToConnect: (error: unknown) => void): void {
    const caller = new AsyncResource('vela.dbl.acquire', { requireManualDestroy: true })
    pool.connect((e: Error | undefined, client: pg.PoolClient | undefined) => {
      caller.runInAsyncScope(() => (e || !client ? failedToConnect(classify(e, address, d) ?? e) : use(client)))
      caller.emitDestroy()
    })
  }

  /** One statement on a client of its own, released (or destroyed if the database failed under it) once answered. */
  const query = <R extends Row>(sql: string, params?: readonly unknown[]) =>
    new Promise<QueryResult<R>>((resolve, reject) =>
      acquire(
        (client) =>
          send(client, sql, params, true, undefined, (e, res) => {
            release(client)
            if (e) reject(e)
            else resolve(res as QueryResult<R>)
          }),
        reject,
      ),
    )

  /** A pooled client for `fn`, released (or destroyed) after it. */
  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await new Promise<pg.PoolClient>((resolve, reject) => acquire(resolve, reject))
    try {
      return await fn(client)
    } finally {
      release(client)
    }
  }

  return {
    kind: 'pg',
    query,
    transaction: (fn) =>
      withClient(async (client) => {
        await run(client, 'BEGIN', undefined, false)
        try {
          const value = await fn({ query: (sql, params) => run(client, sql, params, false) })
          await run(client, 'COMMIT', undefined, true)
          return value
        } catch (err) {
          // After a lost connection or a deadline there is nothing to roll back on: the
          // connection is destroyed and the server rolls the transaction back itself.
          if (!failed.has(client))
            await client.query('ROLLBACK').catch((e: unknown) => failed.set(client, classify(e, address, d) ?? e))
          throw err
        }
      }),
    session: (fn) =>
      withClient(async (client) => {
        const conn: Connection = { query: (sql, params) => run(client, sql, params, true, NO_ANSWER_DEADLINE) }
        if (!d.statementTimeoutMs) return fn(conn)
        await conn.query('SET statement_timeout = 0')
        try {
          return await fn(conn)
        } finally {
          // Back to the connection's default before it returns to the pool (or destroy it).
          if (!failed.has(client))
            await conn.query('RESET statement_timeout').catch((e: unknown) => failed.set(client, e))
        }
      }),
    async close() {
      // A frozen server never answers the goodbye: after a bound, drop the sockets instead.
      let timer: NodeJS.Timeout | undefined
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, connectTimeoutMs || 5000)))
      await Promise.race([pool.end(), bound])
      clearTimeout(timer)
      for (const c of clients)
        (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
    },
  }
}
