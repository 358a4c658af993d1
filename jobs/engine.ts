/**
 * The job engine: pg-boss on the app's own repository.
 *
 * **Choice: pg-boss, not graphile-worker.** graphile-worker 0.18 requires Node >= 22.18, Vela
 * supports 22.15+. pg-boss (12.x, Node >= 22.12) takes the database as an object with
 * `executeSql(text, values)`, both for the whole instance (so it runs on the repo's `pg` pool or on
 * embedded PGlite, through the repo's adapter and its turns) and per call (`send({ db })`, so an
 * enqueue inside `repo.transaction(...)` is inserted on the transaction's connection). It has the
 * rest of what jobs need: retries with exponential backoff and jitter (`retryBackoff`: a delay
 * drawn in [d·2^(n−1), d·2^n) before retry n, "equal jitter"), a run deadline (`expireInSeconds`:
 * the worker gives up on the run and aborts its signal; a run whose worker died is failed by the
 * supervisor once it expires, then retried), keys (`singletonKey`, with `upsert` keeping one
 * pending job per key), cron schedules sent once per slot across instances, and a graceful stop.
 *
 * The adapters take several statements without parameters as a script (pg's simple protocol,
 * PGlite's `exec`): pg-boss sends its maintenance as `BEGIN; …; COMMIT;` blocks.
 */
import type { ConstructorOptions, Db, PgBoss } from 'pg-boss'
import type { Connection } from '../dbl/adapters/adapter.ts'
import type { Repo } from '../dbl/repo.ts'
import { JOBS_SCHEMA } from './tables.ts'

/** pg-boss's database interface over a Vela connection (the adapter, or a transaction's). */
export function engineDb(conn: Connection): Db {
  return { executeSql: (text: string, values?: unknown[]) => conn.query(text, values) }
}

/** What the engine instance does in this process: only send, or also supervise, run schedules and work. */
export interface EngineRole {
  /** Supervise expired runs and send scheduled ones (worker processes). */
  readonly work: boolean
}

/**
 * A pg-boss instance on `repo`'s adapter, in the `vela_jobs` schema, which Vela's migrations
 * install: pg-boss never creates it (`createSchema: false`), and `startEngine` refuses to start
 * without it. pg-boss is imported here, as the engine is made: an app that declares jobs loads
 * `vela/jobs` in every command that loads it (`vela routes`), most of which never start the jobs.
 */
export async function createEngine(
  repo: Repo,
  role: EngineRole,
  options: Partial<ConstructorOptions> = {},
): Promise<PgBoss> {
  const [adapter, { PgBoss }] = await Promise.all([repo.adapter(), import('pg-boss')])
  return new PgBoss({
    db: engineDb(adapter),
    schema: JOBS_SCHEMA,
    backend: adapter.kind === 'pglite' ? 'pglite' : 'postgres',
    createSchema: false,
    // A newer pg-boss than the one that installed the tables migrates them at start, under its lock.
    migrate: true,
    supervise: role.work,
    schedule: role.work,
    // Vela makes its own spans and metrics (telemetry.ts), named after the jobs, not the queues.
    openTelemetry: { enabled: false },
    registerInstance: false,
    ...options,
  })
}
