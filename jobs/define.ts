/**
 * `defineJob`: a background job, declared in `src/jobs/<name>.ts` and discovered like controllers.
 * Its name is its file's (`src/jobs/send_welcome.ts` → `send_welcome`; a named export adds
 * `.<export>`), given when the app starts (registry.ts); `enqueue` inserts a run of it through the
 * engine the app started (runtime.ts), in the caller's transaction when there is one.
 */
import { VelaError } from '../server/errors/vela-error.ts'
import type { EnqueuedJob, EnqueueOptions } from './contracts.ts'
import { activeRuntime } from './registry.ts'

export type { EnqueuedJob, EnqueueOptions } from './contracts.ts'

/** How long to wait before each retry: `'exponential'` (default) or `'fixed'`, from `delay` ms. */
export interface BackoffOptions {
  /** `exponential`: about `delay × 2^(retry − 1)`, with jitter (default); `fixed`: `delay` each time. */
  readonly type?: 'exponential' | 'fixed'
  /** The first delay, in ms (default 1000; the engine counts whole seconds, at least 1). */
  readonly delay?: number
  /** The longest delay, in ms (default: none). */
  readonly maxDelay?: number
}

/** What a handler gets besides its args: the run's id, attempt, and a signal aborted at its timeout or at shutdown. */
export interface JobContext {
  /** The job's id (a UUID). */
  readonly id: string
  /** The job's name (`send_welcome`). */
  readonly name: string
  /** 1 for the first run, 2 for the first retry, … */
  readonly attempt: number
  /** Aborted when the run passes its `timeout`, or when the worker gives up on it: stop work then. */
  readonly signal: AbortSignal
}

/** What `defineJob` takes: the handler, and how the job is queued, retried, bounded and scheduled. */
export interface JobDefinition<A> {
  /** Runs the job; a throw (or a rejected promise) is a failed attempt, retried up to `retries` times. */
  readonly handler: (args: A, ctx: JobContext) => unknown
  /** The queue its runs wait in (default `default`): each queue has its own workers (`jobs.concurrency`). */
  readonly queue?: string
  /** How many times a failed run is tried again (default 3): 4 runs at most. */
  readonly retries?: number
  /** The delay before each retry (default exponential from 1 s, with jitter). */
  readonly backoff?: BackoffOptions | 'exponential' | 'fixed'
  /** How long a run may take, in ms (default 15 min): past it the run fails (and is retried) and `ctx.signal` aborts. */
  readonly timeout?: number
  /** A cron expression (`'*\/5 * * * *'`, UTC): the job is enqueued at each tick, once across all processes. */
  readonly schedule?: string
}

/** A job `defineJob` made: its settings, and `enqueue`. */
export interface Job<A = unknown> {
  readonly kind: 'vela.job'
  readonly definition: JobDefinition<A>
  /** Its name, once the app registered it (from its file under `src/jobs/`). */
  readonly name: string | undefined
  /**
   * Adds a run of the job with `args` (JSON). Inside `repo.transaction(...)` the run is inserted on
   * the transaction's connection: a rollback leaves no run, a commit makes it visible to workers.
   *
   * @example
   * await repo.transaction(async () => {
   *   const user = (await repo.insert(changeset)).value
   *   await sendWelcome.enqueue({ userId: user.id })
   * })
   */
  enqueue(args: A, opts?: EnqueueOptions): Promise<EnqueuedJob>
}

const kName = Symbol.for('vela.jobs.name')
type Named = { [kName]?: string }

/**
 * Declares a background job: export it from a file under `src/jobs/` and the app runs it. The
 * file's name is the job's; `handler(args, ctx)` gets the args given to `enqueue`.
 *
 * @example
 * // src/jobs/send_welcome.ts
 * import { defineJob } from 'vela/jobs'
 *
 * export default defineJob({
 *   retries: 5,
 *   timeout: 30_000,
 *   async handler(args: { userId: number }, ctx) {
 *     await mailer.welcome(args.userId, { signal: ctx.signal })
 *   },
 * })
 */
export function defineJob<A = unknown>(definition: JobDefinition<A>): Job<A> {
  if (!definition || typeof definition.handler !== 'function')
    throw new VelaError('VELA_ERR_JOB', 'defineJob needs a handler: defineJob({ handler(args, ctx) { … } })')
  checkDefinition(definition as JobDefinition<never>)
  const job = {
    kind: 'vela.job' as const,
    definition,
    get name() {
      return (job as Named)[kName]
    },
    enqueue(args: A, opts: EnqueueOptions = {}) {
      const name = (job as Named)[kName]
      if (!name)
        throw new VelaError(
          'VELA_ERR_JOB',
          'this job is not registered: export it from a file under src/jobs/ (the app registers what it finds there)',
        )
      return activeRuntime(name).enqueue(name, args, opts)
    },
  }
  return job
}

/** Gives a job its name (once; registering it again under another name is refused). */
export function nameJob(job: Job<never>, name: string): void {
  const named = job as unknown as Named
  if (named[kName] && named[kName] !== name)
    throw new VelaError('VELA_ERR_JOB', `job ${name} is the job ${named[kName]} exported twice: export each job once`)
  named[kName] = name
}

/**
 * Whether `value` is a job `defineJob` made.
 *
 * @example
 * const jobs = Object.values(await import('./src/jobs/mail.ts')).filter(isJob)
 */
export const isJob = (value: unknown): value is Job<never> =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'vela.job'

const QUEUE_NAME = /^[A-Za-z0-9_.\-/]+$/

function checkDefinition(d: JobDefinition<never>): void {
  const bad = (what: string) => {
    throw new VelaError('VELA_ERR_JOB', `defineJob: ${what}`)
  }
  if (d.queue !== undefined && (typeof d.queue !== 'string' || !QUEUE_NAME.test(d.queue)))
    bad(`queue must be letters, digits, _ . - or /, got ${JSON.stringify(d.queue)}`)
  if (d.retries !== undefined && !(Number.isInteger(d.retries) && d.retries >= 0))
    bad(`retries must be an integer >= 0, got ${JSON.stringify(d.retries)}`)
  if (d.timeout !== undefined && !(Number.isFinite(d.timeout) && d.timeout >= 1000))
    bad(`timeout must be at least 1000 ms, got ${JSON.stringify(d.timeout)}`)
  if (d.schedule !== undefined && (typeof d.schedule !== 'string' || d.schedule.trim() === ''))
    bad(`schedule must be a cron expression such as '*/5 * * * *', got ${JSON.stringify(d.schedule)}`)
  const b = d.backoff
  if (b !== undefined && b !== 'exponential' && b !== 'fixed') {
    if (typeof b !== 'object' || b === null) bad(`backoff must be 'exponential', 'fixed' or { type, delay, maxDelay }`)
    else {
      if (b.type !== undefined && b.type !== 'exponential' && b.type !== 'fixed')
        bad(`backoff.type must be 'exponential' or 'fixed', got ${JSON.stringify(b.type)}`)
      if (b.delay !== undefined && !(Number.isFinite(b.delay) && b.delay >= 0))
        bad(`backoff.delay must be a number of ms >= 0, got ${JSON.stringify(b.delay)}`)
      if (b.maxDelay !== undefined && !(Number.isFinite(b.maxDelay) && b.maxDelay >= 1000))
        bad(`backoff.maxDelay must be at least 1000 ms, got ${JSON.stringify(b.maxDelay)}`)
    }
  }
}
