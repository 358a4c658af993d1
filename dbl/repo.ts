/**
 * `defineRepo(config)`: the repository, the one object an app uses to reach its database.
 *
 * With `url` or `hostname` (or `adapter: 'pg'`) it runs on a PostgreSQL server through a `pg` pool
 * of `poolSize` connections; otherwise on embedded PGlite, so a fresh app needs no database
 * server. `start()` connects (operations called before it start the repo themselves); `stop()`
 * closes. On PostgreSQL, `start()` tries the first connection until it works or `startRetry` runs
 * out (repo/start.ts), logging one line per retry.
 *
 * Deadlines (deadlines.ts: `connectTimeoutMs` 5000, `acquireTimeoutMs` 5000, `statementTimeoutMs`
 * 30000, `idleTimeoutMs` 10000): a database that is unreachable, frozen or saturated fails the
 * operation with a `DbUnavailableError` (unavailable.ts: `status` 503, `code`
 * `VELA_ERR_DB_UNAVAILABLE`, a message naming `host:port` and the deadline) instead of hanging;
 * a write sent and never answered, which may have been applied, with its subclass
 * `DbOutcomeUnknownError` (`status` 504, `VELA_ERR_DB_OUTCOME_UNKNOWN`). Reads never give the
 * latter: running one again is safe.
 *
 * Where PGlite keeps its data (`embeddedDataDir`): `dataDir` when given; in memory for
 * `url: 'memory:'`; in memory under tests (`VELA_ENV=test`, or vitest's `VITEST`), a fresh database
 * per repo instance, so per test file; otherwise in `<cwd>/.data/pglite`, so data outlives the
 * process (`vela migrate`, then `vela serve`). **Choice:** memory is asked for through the URL
 * rather than a separate option, so `defineRepo({ url: process.env.DATABASE_URL })` switches
 * between a server, a folder and memory from the environment alone (`DATABASE_URL=memory:`).
 * The folder follows the working directory, not the app's sources: it is mutable data, like
 * everything under `.data/` (the CLI works in the app's folder, a built server in the folder it
 * is started from).
 *
 * Reads give values, as Ecto's `Repo.all` / `Repo.one`: `all` the rows, `one` / `get` / `getBy` the
 * record or `undefined`, `count` and `exists` a number and a boolean. A read that fails throws: a
 * `DbError` for an error the server raised (400 for a value it refused, else 500), a
 * `MultipleResultsError` when `one` / `getBy` match several rows. Writes of a changeset resolve to
 * `{ ok: true, value } | { ok: false, error: changeset }`: the changeset's own validations and the
 * constraints it declares come back as its errors; any other error the server raised is thrown as a
 * `DbError`, as a read throws it (400 for a value it refused, else 500). Infrastructure
 * failures reject everywhere: a `DbUnavailableError` (503) for the database being unreachable, lost
 * or past a deadline (a statement cancelled by `statementTimeoutMs` included), anything else (a
 * bug) as it was thrown. Inside `transaction(fn)` all repo calls made by `fn` use the transaction
 * (AsyncLocalStorage; no handle to pass around).
 */
import type { Adapter, Connection, QueryResult, Row } from './adapters/adapter.ts'
import { createPgAdapter, pgAddress } from './adapters/pg.ts'
import { resolveDeadlines, type DeadlineOptions } from './deadlines.ts'
import { firstConnection, resolveStartRetry, type StartRetryOptions } from './repo/start.ts'
import { checkReplicas, closeReplicas, openReplicas, type ReplicaConfig } from './repo/replicas.ts'
import { createPgliteAdapter } from './adapters/pglite.ts'
import { AsyncLocalStorage } from 'node:async_hooks'
import { join } from 'node:path'
import type { Changeset } from './changeset.ts'
import type { DbError } from './db-error.ts'
import type { Multi, MultiFailure } from './multi.ts'
import type { Query } from './query/types.ts'
import { ok, type Result } from './result.ts'
import type { AnySchema, RecordOf } from './schema.ts'
import { deleteAll, insertAll, updateAll } from './repo/bulk.ts'
import { exec, failure, type RepoContext, type TxState } from './repo/context.ts'
import { runMulti } from './repo/multi.ts'
import { preload } from './repo/preload.ts'
import { schemaOfRecord } from './record-origin.ts'
import type { CheckSpec, Preloaded, PreloadSpec } from './repo/preload-spec.ts'
import { all, count, get, getBy, one } from './repo/read.ts'
import { exists } from './repo/exists.ts'
import { paginate, type CursorOptions, type CursorPage, type Page, type PageOptions } from './repo/paginate.ts'
import { stream, type StreamOptions } from './repo/stream.ts'
import { createRunner, type LogOption } from './repo/telemetry.ts'
import { rollback, transaction, type TransactionResult } from './repo/transaction.ts'
import {
  insert,
  remove,
  update,
  type DeleteOptions,
  type InsertOptions,
  type MaybeInsertResult,
  type OnConflictReplace,
  type WriteResult,
} from './repo/write.ts'
import { emptyChangeset, isChangeset } from './changeset.ts'
import { withActor } from './audit/actor.ts'
import { keyOf, missingKeyField } from './primary-key.ts'

/** What `defineRepo` takes: where the database is (a URL, separate fields, or embedded PGlite), the pool, deadlines and query logging. */
export interface RepoConfig extends DeadlineOptions {
  /** Names the repo in query events and log lines. Default `repo`. */
  readonly name?: string
  /** `postgres://user:password@host:port/database`; wins over the separate fields. `memory:` is embedded PGlite in memory. */
  readonly url?: string
  readonly database?: string
  readonly hostname?: string
  readonly port?: number
  readonly username?: string
  readonly password?: string
  /** `pg` pool size (default 10). */
  readonly poolSize?: number
  /** PGlite data folder; omitted = `<cwd>/.data/pglite`, or memory under tests or with `url: 'memory:'`. */
  readonly dataDir?: string
  /** Forces the backend, or supplies a ready adapter (e.g. one PGlite shared by several repos in tests). */
  readonly adapter?: 'pg' | 'pglite' | Adapter
  /** Query events: `true` logs one line per query, a function receives each `QueryEvent`. Default off. */
  readonly log?: LogOption
  /** `start()` on PostgreSQL: default `{ attempts: 5, delayMs: 500, timeoutMs: 10000 }` (repo/start.ts). */
  readonly startRetry?: StartRetryOptions
  /**
   * Read replicas, PostgreSQL only: each a connection config like the primary's (`{ url }` or the
   * separate fields, `poolSize`, deadlines; unset ones follow the primary's) or a ready adapter.
   * Reads outside a transaction go to them in turn; writes, raw SQL and transactions to the
   * primary; `repo.onPrimary(fn)` sends a block's reads to the primary. A non-empty list on
   * PGlite throws (repo/replicas.ts).
   */
  readonly replicas?: readonly ReplicaConfig[]
}

type Clauses<S extends AnySchema> = { readonly [K in keyof RecordOf<S>]?: RecordOf<S>[K] | null }

/** The repository `defineRepo` returns: reads, writes, transactions and raw SQL on one database. */
export interface Repo {
  readonly name: string
  readonly config: RepoConfig
  start(): Promise<void>
  stop(): Promise<void>
  /** Which backend `start` chose. */
  readonly backend: 'pg' | 'pglite'
  /** The adapter the repo runs on (started if needed): for the migrator and raw driver access. */
  adapter(): Promise<Adapter>
  /**
   * Every row of the query, typed as it selects them. A database failure throws (a `DbError`).
   *
   * @example
   * const products = await repo.all(from(Product).where('price', '>', 100).orderBy('name'))
   */
  all<S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<R[]>
  /**
   * The query's one row, or `undefined` when none matches; several rows throw a
   * `MultipleResultsError` (Ecto's `Repo.one`).
   *
   * @example
   * const stats = await repo.one(from(LineItem).select({ n: count(), total: sum('quantity') }))
   */
  one<S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<R | undefined>
  /**
   * The query's rows as an async iterator, read `batchSize` (default 500) at a time, so a large
   * result never sits in memory whole; loaded as `all` loads them. On PostgreSQL a server-side
   * cursor on one connection (the transaction's inside `transaction`), given back when the loop
   * ends, breaks or throws; on PGlite keyset batches (see repo/stream.ts for both). `preload`
   * loads associations per batch.
   *
   * @example
   * for await (const order of repo.stream(from(Order).where({ state: 'open' }).orderBy('id'), { batchSize: 1000 })) {
   *   await exportLine(order)
   * }
   */
  stream<S extends AnySchema, J, const P extends PreloadSpec<S>>(
    q: Query<S, RecordOf<S>, J>,
    opts: StreamOptions<P & CheckSpec<S, P>> & { readonly preload: P & CheckSpec<S, P> },
  ): AsyncGenerator<Preloaded<S, P>, void, undefined>
  stream<S extends AnySchema, R, J>(q: Query<S, R, J>, opts?: StreamOptions): AsyncGenerator<R, void, undefined>
  /**
   * A page of the query's rows. `{ page, pageSize }`: by page number, with `total` and
   * `totalPages`. `{ after, limit }`: the rows after a cursor the previous page gave, for a query
   * ordered by fields ending in the primary key; stable under inserts, fast on any page. A bad
   * page, size or cursor throws a `PaginationError` (400). See repo/paginate.ts.
   *
   * @example
   * const { entries, total, totalPages } = await repo.paginate(from(Post).orderBy(['inserted_at', 'desc'], 'id'), { page: req.query.page, pageSize: 20 })
   * const first = await repo.paginate(from(Post).orderBy('id'), { limit: 50 })
   * const next = first.after ? await repo.paginate(from(Post).orderBy('id'), { after: first.after, limit: 50 }) : undefined
   */
  paginate<S extends AnySchema, R, J>(q: Query<S, R, J>, opts: CursorOptions): Promise<CursorPage<R>>
  paginate<S extends AnySchema, R, J>(q: Query<S, R, J>, opts?: PageOptions): Promise<Page<R>>
  /**
   * The record with this primary key, or `undefined`. An id that cannot be one (`'abc'` for an
   * integer key) finds nothing, without a query. For a composite key give an object naming every
   * key field; a scalar or a partial key throws.
   *
   * @example
   * const product = await repo.get(Product, req.params.id)
   * if (!product) return status(404)
   * const line = await repo.get(OrderLine, { order_id: 1, line_no: 2 })
   */
  get<S extends AnySchema>(schema: S, id: unknown): Promise<RecordOf<S> | undefined>
  /**
   * The one record matching every clause (`null` = IS NULL), or `undefined`; several matching
   * records throw a `MultipleResultsError` (repo/read.ts).
   *
   * @example
   * const user = await repo.getBy(User, { email })
   * if (!user) return status(404)
   */
  getBy<S extends AnySchema>(schema: S, clauses: Clauses<S>): Promise<RecordOf<S> | undefined>
  /**
   * How many rows the query gives (`SELECT count(*)` over it: limit and offset bound what is
   * counted, ordering is ignored). The COUNT aggregate, for grouped counts, is `count()` in `select`.
   *
   * @example
   * const expensive = await repo.count(from(Product).where('price', '>', 100))   // 12
   */
  count<S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<number>
  /**
   * Whether any row matches the query (`SELECT EXISTS (…)`, stopping at the first match).
   *
   * @example
   * if (await repo.exists(from(User).where({ email }))) return json({ errors: { email: ['has already been taken'] } }, { status: 409 })
   */
  exists<S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<boolean>
  /**
   * The record as the database holds it now, read again by its primary key (Ecto's `Repo.reload`),
   * or `undefined` when it was deleted meanwhile. Virtual fields and preloaded associations are not kept.
   *
   * @example
   * const fresh = await repo.reload(Post, post)
   * if (!fresh) return json({ error: 'gone' }, { status: 404 })
   */
  reload<S extends AnySchema>(schema: S, record: Partial<RecordOf<S>>): Promise<RecordOf<S> | undefined>
  /**
   * The same for a record this repository read or wrote (`repo.get`, `all`, `insert`, … gave this
   * very object), which knows its schema; a copy (`{ ...record }`) does not, and throws.
   *
   * @example
   * const fresh = await repo.reload(post)
   */
  reload<R extends object>(record: R): Promise<R | undefined>
  /** `onConflict: { target, replace }` upserts; `{ target?, action: 'nothing' }` skips the row: value `null` (repo/write.ts). */
  insert<S extends AnySchema>(
    cs: Changeset<S>,
    opts?: { readonly onConflict?: OnConflictReplace<S> },
  ): Promise<WriteResult<S>>
  insert<S extends AnySchema>(cs: Changeset<S>, opts: InsertOptions<S>): Promise<MaybeInsertResult<S>>
  update<S extends AnySchema>(cs: Changeset<S>): Promise<WriteResult<S>>
  /**
   * A changeset (to carry constraint declarations such as `noAssocConstraint`) or a schema and a
   * record. A `softDelete` schema's row gets its deleted-at column set instead, unless `{ hard: true }`.
   *
   * @example
   * await repo.delete(Post, post)                    // soft: sets deleted_at
   * await repo.delete(Post, post, { hard: true })    // DELETE
   */
  delete<S extends AnySchema>(cs: Changeset<S>, opts?: DeleteOptions): Promise<WriteResult<S>>
  delete<S extends AnySchema>(schema: S, record: Partial<RecordOf<S>>, opts?: DeleteOptions): Promise<WriteResult<S>>
  insertAll<S extends AnySchema>(
    schema: S,
    rows: readonly Partial<RecordOf<S>>[],
  ): Promise<Result<{ count: number; rows: RecordOf<S>[] }, DbError>>
  /**
   * `returning`: only these fields of the inserted rows come back (`RETURNING "id"` rather than
   * every column); an empty list returns none (`rows` is then empty, `count` still the rows inserted).
   *
   * @example
   * const r = await repo.insertAll(Product, rows, { returning: ['id'] })   // r.value.rows: { id: number }[]
   */
  insertAll<S extends AnySchema, const K extends keyof RecordOf<S> & string>(
    schema: S,
    rows: readonly Partial<RecordOf<S>>[],
    opts: { readonly returning: readonly K[] },
  ): Promise<Result<{ count: number; rows: Pick<RecordOf<S>, K>[] }, DbError>>
  updateAll<S extends AnySchema, R, J>(
    q: Query<S, R, J>,
    set: Partial<RecordOf<S>>,
  ): Promise<Result<{ count: number }, DbError>>
  /** Deletes every row `q` matches; a `softDelete` schema's rows get their deleted-at column set, unless `{ hard: true }`. */
  deleteAll<S extends AnySchema, R, J>(
    q: Query<S, R, J>,
    opts?: DeleteOptions,
  ): Promise<Result<{ count: number }, DbError>>
  /**
   * Loads associations, nested as in Ecto (`['profile', { posts: ['comments'] }]`), one query per
   * association per level; an unknown name throws before any query. Gives the records with the
   * associations set. See repo/preload-spec.ts.
   *
   * @example
   * const posts = await repo.preload(Post, await repo.all(from(Post)), ['author', { comments: ['author'] }])
   */
  preload<S extends AnySchema, const P extends PreloadSpec<S>>(
    schema: S,
    records: readonly RecordOf<S>[],
    spec: P & CheckSpec<S, P>,
  ): Promise<Preloaded<S, P>[]>
  preload<S extends AnySchema, const P extends PreloadSpec<S>>(
    schema: S,
    record: RecordOf<S>,
    spec: P & CheckSpec<S, P>,
  ): Promise<Preloaded<S, P>>
  /**
   * Runs `fn` in a transaction: `{ ok: true, value }` with what `fn` returned when it commits (a
   * result `fn` returns is passed through). See repo/transaction.ts for the exact commit / rollback rules.
   *
   * @example
   * const res = await repo.transaction(async () => {
   *   const order = await repo.insert(cast(Order, null, params, ['total']))
   *   if (!order.ok) repo.rollback(order.error)
   *   return order.value
   * })
   * if (res.ok) console.log(res.value.id)
   */
  transaction<T>(fn: (repo: Repo) => Promise<T> | T): Promise<TransactionResult<Awaited<T>>>
  /** Inside `transaction`: roll back and make the transaction return `{ ok: false, error: value }`. */
  rollback(value: unknown): never
  multi<C extends Record<string, unknown>, R>(m: Multi<C, R>): Promise<Result<C, MultiFailure<C>>>
  /** Raw SQL with `$1` parameters. */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<Result<QueryResult<R>, DbError>>
  /**
   * The connection of the transaction the current call runs in (inside `transaction(fn)`, however
   * deep), or `undefined` outside one: for a library that must write in the caller's transaction
   * (`vela/jobs` inserts an enqueued job with it, so a rollback leaves no job).
   *
   * @example
   * const conn = repo.currentTransaction()
   * await (conn ?? (await repo.adapter())).query('INSERT INTO audit (line) VALUES ($1)', [line])
   */
  currentTransaction(): Connection | undefined
  /**
   * Runs `fn` once the current transaction has committed; never if it rolls back. Outside a
   * transaction `fn` runs at once. For work that must not happen for a write that was undone:
   * counting what was done, waking a worker, telling another process.
   *
   * @example
   * await repo.transaction(async () => {
   *   await repo.insert(cast(User, null, params, ['email']))
   *   repo.afterCommit(() => signups.inc())
   * })
   */
  afterCommit(fn: () => void): void
  /**
   * Runs `fn` with every read it makes through this repo sent to the primary rather than a
   * replica: for a read that must see a write just made (replicas lag). Without replicas, `fn()`.
   *
   * @example
   * const res = await repo.insert(cast(Order, null, params, ['total']))
   * const fresh = await repo.onPrimary(() => repo.get(Order, res.ok ? res.value.id : 0))
   */
  onPrimary<T>(fn: () => T): T
  /**
   * Runs `fn` with `actor` (any JSON value) as the actor the audit rows of its writes record
   * (`audit` in `defineSchema`); gives what `fn` gives. The same as `withActor` of `vela/dbl`: the
   * actor is per async call chain, not per repository.
   *
   * @example
   * await repo.withActor({ id: admin.id }, () => repo.delete(Post, post))
   */
  withActor<T>(actor: unknown, fn: () => T): T
}

/** The URL that asks for the embedded database in memory. */
export const MEMORY_URL = 'memory:'

function backendOf(config: RepoConfig): 'pg' | 'pglite' {
  if (typeof config.adapter === 'object') return config.adapter.kind
  const server = config.url ? config.url !== MEMORY_URL : !!config.hostname
  return config.adapter ?? (server ? 'pg' : 'pglite')
}

/** The folder embedded PGlite keeps its data in; `undefined` is memory (rules in the doc above). */
export function embeddedDataDir(
  config: RepoConfig,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  if (config.dataDir) return config.dataDir
  if (config.url === MEMORY_URL || env.VELA_ENV === 'test' || env.VITEST) return undefined
  return join(cwd, '.data', 'pglite')
}

/**
 * The repository: the one object an app uses to reach its database. A PostgreSQL server with
 * `url` or `hostname`; otherwise embedded PGlite (in `.data/pglite`, or in memory under tests or
 * with `url: 'memory:'`). Reads give rows (or `undefined`) and throw when the database fails;
 * writes resolve to `{ ok, value | error }`.
 *
 * @example
 * import { defineRepo } from 'vela/dbl'
 *
 * export const repo = defineRepo({ name: 'app_repo', url: process.env.DATABASE_URL, poolSize: 20 })
 *
 * const product = await repo.get(Product, 1)
 * if (product) console.log(product.name)
 */
export function defineRepo(config: RepoConfig = {}): Repo {
  const backend = backendOf(config)
  // Checked now, so a bad value fails where the repo is defined rather than at the first query.
  resolveDeadlines(config)
  const retry = resolveStartRetry(config.startRetry)
  const name = config.name ?? 'repo'
  checkReplicas(config.replicas, backend, name)
  let starting: Promise<Adapter> | undefined
  const ctx: RepoContext = {
    name,
    adapter: typeof config.adapter === 'object' ? config.adapter : undefined,
    tx: new AsyncLocalStorage<TxState>(),
    run: createRunner(name, config.log),
    // Pools connect on their first query; opened now so a repo given a ready adapter (never started) has them too.
    replicas: openReplicas(config.replicas, config),
    self: undefined,
    // Creates the adapter; a pg pool connects on its first query. Operations call this.
    start() {
      starting ??= (async () => {
        const a =
          typeof config.adapter === 'object'
            ? config.adapter
            : backend === 'pg'
              ? createPgAdapter(config)
              : await createPgliteAdapter({
                  dataDir: embeddedDataDir(config),
                  acquireTimeoutMs: config.acquireTimeoutMs,
                })
        ctx.replicas ??= openReplicas(config.replicas, config)
        ctx.adapter = a
        return a
      })()
      return starting
    },
  }

  const repo: Repo = {
    name: ctx.name,
    config,
    backend,
    // Also waits for the server (repo/start.ts): only here, at start-up. An operation that starts
    // the repo on demand tries once, as every later operation does; a request must not wait 10 s.
    async start() {
      const a = await ctx.start()
      if (a.kind !== 'pg' || typeof config.adapter === 'object') return
      try {
        await firstConnection(
          () => a.query('SELECT 1'),
          pgAddress(config),
          retry,
          (line) => console.warn(`[${name}] ${line}`),
        )
      } catch (e) {
        await repo.stop()
        throw e
      }
    },
    adapter: () => ctx.start(),
    currentTransaction: () => ctx.tx.getStore()?.conn,
    withActor,
    afterCommit(fn) {
      const state = ctx.tx.getStore()
      if (state) state.afterCommit.push(fn)
      else fn()
    },
    async stop() {
      const a = ctx.adapter
      const replicas = ctx.replicas
      ctx.adapter = undefined
      ctx.replicas = undefined
      starting = undefined
      if (a) await a.close()
      await closeReplicas(replicas, config.replicas)
    },
    onPrimary: (fn) => (ctx.replicas ? ctx.replicas.primary.run(true, fn) : fn()),
    all: (q) => all(ctx, q),
    one: (q) => one(ctx, q),
    get: (schema, id) => get(ctx, schema, id),
    getBy: (schema, clauses) => getBy(ctx, schema, clauses),
    count: (q) => count(ctx, q),
    exists: (q) => exists(ctx, q),
    async reload(a: AnySchema | object, b?: object) {
      const schema = b === undefined ? schemaOfRecord(a) : (a as AnySchema)
      const record = b === undefined ? a : b
      if (!schema)
        throw new Error(
          'reload(record): this object was not read or written by a repository (a copy, or made by hand); call repo.reload(Schema, record)',
        )
      const missing = missingKeyField(schema, record as Record<string, unknown> | null | undefined)
      if (missing !== undefined) throw new Error(`reload: the record has no ${missing}`)
      return get(ctx, schema, keyOf(schema, record as Record<string, unknown>))
    },
    insert: ((cs: Changeset, opts?: InsertOptions<AnySchema>) => insert(ctx, cs, opts)) as Repo['insert'],
    update: (cs) => update(ctx, cs),
    delete: ((a: Changeset | AnySchema, b?: Record<string, unknown>, c?: DeleteOptions) =>
      isChangeset(a)
        ? remove(ctx, a, b as DeleteOptions | undefined)
        : remove(ctx, emptyChangeset(a, b as never), c)) as Repo['delete'],
    insertAll: ((schema: AnySchema, rows: readonly object[], opts?: { readonly returning?: readonly string[] }) =>
      insertAll(ctx, schema, rows, opts?.returning)) as Repo['insertAll'],
    updateAll: (q, set) => updateAll(ctx, q, set),
    deleteAll: (q, opts) => deleteAll(ctx, q, opts),
    preload: (async (schema: AnySchema, records: unknown, spec: PreloadSpec<AnySchema>) => {
      const single = !Array.isArray(records)
      const res = await preload(ctx, schema, (single ? [records] : records) as never, spec)
      return single ? res[0] : res
    }) as Repo['preload'],
    transaction: (fn) => transaction(ctx, () => fn(repo)) as never,
    stream: ((q: Query, opts?: StreamOptions<PreloadSpec<AnySchema>>) => stream(ctx, q, opts)) as Repo['stream'],
    paginate: ((q: Query, opts?: PageOptions | CursorOptions) => paginate(ctx, q, opts)) as Repo['paginate'],
    rollback: (value) => rollback(ctx, value),
    multi: (m) => runMulti(ctx, repo, m as never),
    async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
      try {
        return ok((await exec(ctx, sql, [...params])) as QueryResult<R>)
      } catch (e) {
        return failure(e)
      }
    },
  }
  ctx.self = repo
  return repo
}
