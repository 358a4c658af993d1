/**
 * `jobs` in the app's config, and what each job's definition means for the engine's send options.
 */
import type { ConstructorOptions, SendOptions } from 'pg-boss'
import { VelaError } from '../server/errors/vela-error.ts'
import type { Repo } from '../dbl/repo.ts'
import type { JobDefinition } from './define.ts'

/** `jobs` in `defineApp`: the repository, how many runs at once, and whether the app's processes run them. */
export interface JobsConfig {
  /** The repository whose database holds the jobs (default: the `repo` export of `src/repo.ts`). */
  readonly repo?: Repo
  /** Runs at once per queue in each process: a number, or per queue (`{ default: 5, mail: 2 }`). Default 5. */
  readonly concurrency?: number | Readonly<Record<string, number>>
  /**
   * Whether the app's own processes run jobs (default true). `false`: they only enqueue, and runs
   * happen in processes started with `vela jobs work`, so web and worker processes scale apart.
   */
  readonly inApp?: boolean
  /** How often an idle worker looks for runs, in ms (default 2000, at least 500). */
  readonly pollInterval?: number
  /** On shutdown, how long running jobs may take to finish, in ms (default 8000, within the stop hook's 10 s). */
  readonly shutdownTimeout?: number
  /** pg-boss constructor options, for what Vela does not name (intervals of its supervisor and cron). */
  readonly engine?: Partial<ConstructorOptions>
}

export interface ResolvedJobsConfig {
  concurrency: (queue: string) => number
  inApp: boolean
  pollInterval: number
  shutdownTimeout: number
  engine: Partial<ConstructorOptions>
}

const positiveInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 1

/** The config with its defaults; a bad value is a VELA_ERR_CONFIG naming it. */
export function resolveJobsConfig(config: JobsConfig = {}): ResolvedJobsConfig {
  const bad = (what: string, got: unknown) => {
    throw new VelaError('VELA_ERR_CONFIG', `jobs.${what}, got ${JSON.stringify(got)}`)
  }
  const c = config.concurrency ?? 5
  if (typeof c === 'number' ? !positiveInt(c) : typeof c !== 'object' || !Object.values(c).every(positiveInt))
    bad('concurrency must be an integer >= 1, or one per queue ({ default: 5, mail: 2 })', c)
  const pollInterval = config.pollInterval ?? 2000
  if (!(Number.isFinite(pollInterval) && pollInterval >= 500)) bad('pollInterval must be at least 500 ms', pollInterval)
  const shutdownTimeout = config.shutdownTimeout ?? 8000
  if (!(Number.isFinite(shutdownTimeout) && shutdownTimeout >= 0))
    bad('shutdownTimeout must be a number of ms >= 0', shutdownTimeout)
  return {
    concurrency: (queue) => (typeof c === 'number' ? c : (c[queue] ?? c.default ?? 5)),
    inApp: config.inApp ?? true,
    pollInterval,
    shutdownTimeout,
    engine: config.engine ?? {},
  }
}

/** A job's retries, backoff and timeout as pg-boss send options (seconds; pg-boss stores whole ones). */
export function sendOptionsOf(d: JobDefinition<never>): SendOptions {
  const backoff = typeof d.backoff === 'string' ? { type: d.backoff } : (d.backoff ?? {})
  const exponential = (backoff.type ?? 'exponential') === 'exponential'
  const delay = Math.max(exponential ? 1 : 0, Math.round((backoff.delay ?? 1000) / 1000))
  return {
    retryLimit: d.retries ?? 3,
    retryDelay: delay,
    retryBackoff: exponential,
    ...(backoff.maxDelay !== undefined && { retryDelayMax: Math.round(backoff.maxDelay / 1000) }),
    ...(d.timeout !== undefined && { expireInSeconds: Math.ceil(d.timeout / 1000) }),
  }
}
