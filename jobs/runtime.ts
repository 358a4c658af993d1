/**
 * `startJobs`: the jobs of an app, running. One pg-boss instance on the app's repository
 * (engine.ts); every job's queue created; in a worker process, one `work()` per queue with the
 * configured concurrency and each scheduled job's cron registered (schedules no job declares any
 * more are removed). `enqueue` inserts through the same instance, on the caller's transaction when
 * there is one (`repo.currentTransaction()`).
 *
 * A run's data is `{ job, args, trace? }`: several jobs may share a queue, the worker finds the
 * handler by `job`; `trace` carries the enqueuing request's trace context (telemetry.ts).
 *
 * Shutdown (`stop`): the workers stop fetching, runs in progress get `shutdownTimeout` to finish;
 * pg-boss then fails those still running (an attempt spent: they are retried, by any process, after
 * their backoff) and aborts their signals. Runs not yet fetched stay queued.
 */
import type { Job as EngineJob, JobWithMetadata, PgBoss, SendOptions } from 'pg-boss'
import type { Repo } from '../dbl/repo.ts'
import { VelaError } from '../server/errors/vela-error.ts'
import type { DrainResult } from './contracts.ts'
import type { EnqueuedJob, EnqueueOptions, Job, JobDefinition } from './define.ts'

export type { DrainResult } from './contracts.ts'
import { nameJob } from './define.ts'
import { createEngine, engineDb } from './engine.ts'
import type { JobsConfig } from './options.ts'
import { resolveJobsConfig, sendOptionsOf } from './options.ts'
import { register } from './registry.ts'
import { jobTelemetry } from './telemetry.ts'
import type { JobRow, JobState } from './listing.ts'
import { listJobs } from './listing.ts'
import { cancelRun, retryRun } from './admin.ts'

/** The data of a run as stored. */
export interface RunData {
  readonly job: string
  readonly args: unknown
  readonly trace?: Record<string, string>
}

/** Options of `startJobs`. */
export interface StartJobsOptions {
  /** The repository whose database holds the jobs (its migrations installed the tables). */
  readonly repo: Repo
  /** The jobs by name (`send_welcome`), as discovery names them. */
  readonly jobs: Readonly<Record<string, Job<never>>>
  /** `jobs` from the app's config. */
  readonly config?: JobsConfig
  /**
   * `true`: run jobs in this process (workers, schedules, the supervisor); `false`: only enqueue;
   * `'manual'`: run them only when asked (`drain`, what `vela/testing`'s `drainJobs` calls).
   */
  readonly work: boolean | 'manual'
  /** Where failures of the engine are logged (default `console.error`). */
  readonly log?: (message: string, error?: unknown) => void
}

/** The jobs of an app, started: enqueue, list, retry, cancel, drain and stop. */
export interface JobsRuntime {
  readonly engine: PgBoss
  readonly names: readonly string[]
  enqueue(name: string, args: unknown, opts?: EnqueueOptions): Promise<EnqueuedJob>
  /** Runs, newest first, of some states (default all), at most `limit` (default 100). */
  list(opts?: { states?: readonly JobState[]; limit?: number }): Promise<JobRow[]>
  /** Puts a failed (or cancelled) run back in its queue. */
  retry(id: string): Promise<boolean>
  /** Cancels a run that has not finished. */
  cancel(id: string): Promise<boolean>
  /** The jobs that declare a schedule, with its cron expression. */
  schedules(): readonly { readonly job: string; readonly cron: string }[]
  /** Runs the runs ready now in this process, one at a time, until none is left (tests). */
  drain(opts?: { scheduled?: boolean }): Promise<DrainResult>
  /** Stops the workers (running jobs get `shutdownTimeout`), then the engine. */
  stop(): Promise<void>
}

const queueOf = (d: JobDefinition<never>) => d.queue ?? 'default'

/** A run's timeout when its job names none: pg-boss's default expiry, 15 minutes. */
const DEFAULT_TIMEOUT_MS = 15 * 60_000

/**
 * Starts the jobs of an app on its repository. The app does this after its start hook (the
 * repository is started and migrated by then); scripts and tools call it themselves.
 *
 * @example
 * const runtime = await startJobs({ repo, jobs: { send_welcome: sendWelcome }, work: true })
 * await sendWelcome.enqueue({ userId: 1 })
 * await runtime.stop()
 */
export async function startJobs(opts: StartJobsOptions): Promise<JobsRuntime> {
  const config = resolveJobsConfig(opts.config)
  const log = opts.log ?? ((message, error) => console.error(message, error ?? ''))
  const { repo } = opts
  const definitions = new Map<string, JobDefinition<never>>()
  for (const [name, job] of Object.entries(opts.jobs)) {
    nameJob(job, name)
    definitions.set(name, job.definition)
  }
  const queues = [...new Set([...definitions.values()].map(queueOf))]
  const working = opts.work === true
  const engine = await createEngine(repo, { work: working }, config.engine)
  engine.on('error', (err) => log(`vela/jobs: ${err.message}`, err))
  const adapter = await repo.adapter()
  if (!(await engine.isInstalled()))
    throw new VelaError(
      'VELA_ERR_JOB',
      `the jobs tables are missing from the ${adapter.kind === 'pglite' ? 'embedded' : 'PostgreSQL'} database: run \`vela migrations generate\` (it writes the migration that installs them) and \`vela migrate\``,
    )
  await engine.start()
  for (const q of queues) if (!(await engine.getQueue(q))) await engine.createQueue(q)
  const telemetry = jobTelemetry(engine, queues)

  const run = async (job: JobWithMetadata<RunData> | EngineJob<RunData>) => {
    const data = job.data
    const definition = definitions.get(data.job)
    if (!definition) throw new Error(`no job named ${data.job} in this app (src/jobs/)`)
    await telemetry.run(data, job.id, job.name, () =>
      definition.handler(data.args as never, {
        id: job.id,
        name: data.job,
        attempt: job.retryCount + 1,
        // A worker's run has pg-boss's signal; a fetched one (drain) has none: it gets one aborted
        // at the job's timeout, so a handler can always pass `ctx.signal` on.
        signal: job.signal ?? AbortSignal.timeout(definition.timeout ?? DEFAULT_TIMEOUT_MS),
      }),
    )
  }

  /**
   * pg-boss waits a poll interval after every run of a worker fetching one at a time (its bursts
   * need batches, or queue counts cached for up to a minute), which caps a backlog at
   * `concurrency / pollInterval` runs a second. A worker that just ran one is told to fetch again
   * at once (`notifyWorker` skips its wait); one whose fetch comes back empty waits as before.
   */
  const keepFetching = (queue: string) => {
    for (const w of engine.getWipData()) if (w.name === queue && w.count > 0) engine.notifyWorker(w.id)
  }
  /** An idle worker of `queue` in this process wakes for a run enqueued here (outside a transaction). */
  const wakeOne = (queue: string) => {
    const idle = engine.getWipData().find((w) => w.name === queue && w.count === 0 && w.state === 'active')
    if (idle) engine.notifyWorker(idle.id)
  }

  if (working) {
    for (const q of queues)
      await engine.work<RunData>(
        q,
        { localConcurrency: config.concurrency(q), pollingIntervalSeconds: config.pollInterval / 1000 },
        async ([job]) => {
          try {
            await run(job!)
          } finally {
            keepFetching(q)
          }
        },
      )
    await syncSchedules(engine, definitions)
  }

  const runtime: JobsRuntime = {
    engine,
    names: [...definitions.keys()],
    async enqueue(name, args, eopts = {}) {
      const definition = definitions.get(name)
      if (!definition) throw new VelaError('VELA_ERR_JOB', `no job named ${name} in this app (src/jobs/)`)
      checkEnqueue(name, args, eopts)
      const queue = queueOf(definition)
      const conn = repo.currentTransaction()
      const data: RunData = { job: name, args, ...telemetry.carrier() }
      const options: SendOptions = {
        ...sendOptionsOf(definition),
        ...(eopts.priority !== undefined && { priority: eopts.priority }),
        ...(eopts.runAt !== undefined && {
          startAfter: typeof eopts.runAt === 'number' ? new Date(Date.now() + eopts.runAt) : eopts.runAt,
        }),
        ...(conn && { db: engineDb(conn) }),
      }
      let result: EnqueuedJob
      if (eopts.key !== undefined) {
        const r = await engine.upsert(queue, data, { ...options, singletonKey: `${name}:${eopts.key}` })
        result = { id: r.jobs[0]!, existing: r.updated > 0 }
      } else {
        const id = await engine.send(queue, data, options)
        if (!id) throw new Error(`vela/jobs: ${name} was not inserted`)
        result = { id, existing: false }
      }
      // Inside a transaction the run exists only once it commits: counted, and an idle worker
      // woken, then (never for a rollback).
      repo.afterCommit(() => {
        telemetry.enqueued(name, queue)
        if (working) wakeOne(queue)
      })
      return result
    },
    list: (lopts = {}) => listJobs(repo, { ...lopts, jobs: runtime.names }),
    schedules: () =>
      [...definitions].filter(([, d]) => d.schedule).map(([job, d]) => ({ job, cron: d.schedule! })),
    retry: (id) => retryRun(engine, repo, id, runtime.names),
    cancel: (id) => cancelRun(engine, repo, id, runtime.names),
    async drain(dopts = {}) {
      let completed = 0
      let failed = 0
      for (;;) {
        let ran = 0
        for (const q of queues) {
          const fetched = await engine.fetch<RunData>(q, {
            batchSize: 1,
            includeMetadata: true,
            ignoreStartAfter: dopts.scheduled ?? false,
          })
          for (const job of fetched) {
            ran++
            try {
              await run(job)
              await engine.complete(q, job.id)
              completed++
            } catch (err) {
              await engine.fail(q, job.id, errorOutput(err))
              failed++
            }
          }
        }
        if (ran === 0) return { completed, failed }
      }
    },
    async stop() {
      unregister()
      telemetry.close()
      await engine.stop({ graceful: true, timeout: Math.max(config.shutdownTimeout, 1000), close: false })
    },
  }
  const unregister = register(runtime.names, runtime)
  return runtime
}

/** What a failed run keeps as its output: the error's message and stack (pg-boss serialises errors the same way). */
const errorOutput = (err: unknown) =>
  err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) }

/** Registers every declared schedule and removes those of jobs that no longer declare one. */
async function syncSchedules(engine: PgBoss, definitions: ReadonlyMap<string, JobDefinition<never>>): Promise<void> {
  const wanted = new Map<string, JobDefinition<never>>()
  for (const [name, d] of definitions) if (d.schedule) wanted.set(name, d)
  for (const [name, d] of wanted)
    await engine.schedule(queueOf(d), d.schedule!, { job: name, args: {} } satisfies RunData, {
      ...sendOptionsOf(d),
      key: name,
      tz: 'UTC',
    })
  for (const s of await engine.getSchedules()) {
    const d = definitions.get(s.key)
    if (!wanted.has(s.key) || (d && queueOf(d) !== s.name)) await engine.unschedule(s.name, s.key)
  }
}

function checkEnqueue(name: string, args: unknown, opts: EnqueueOptions): void {
  const bad = (what: string) => {
    throw new VelaError('VELA_ERR_JOB', `${name}.enqueue: ${what}`)
  }
  if (args === undefined) bad('args are required (JSON; {} for none)')
  if (opts.runAt !== undefined && !(opts.runAt instanceof Date ? !Number.isNaN(opts.runAt.getTime()) : Number.isFinite(opts.runAt)))
    bad(`runAt must be a Date or ms from now, got ${JSON.stringify(opts.runAt)}`)
  if (opts.key !== undefined && (typeof opts.key !== 'string' || opts.key === '' || opts.key.length > 200))
    bad(`key must be a string of 1 to 200 characters, got ${JSON.stringify(opts.key)}`)
  if (opts.priority !== undefined && !Number.isInteger(opts.priority))
    bad(`priority must be an integer, got ${JSON.stringify(opts.priority)}`)
}
