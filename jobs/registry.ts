/**
 * Which running engine each job's `enqueue` goes to. Kept on `globalThis` under a registered
 * symbol: an app's job files and the runtime the app entry starts may be two copies of this module
 * (vitest runs `vela/testing`'s folder through Vite, everything else through Node), and must agree.
 */
import { VelaError } from '../server/errors/vela-error.ts'
import type { DrainResult, EnqueuedJob, EnqueueOptions } from './contracts.ts'
import type { JobRow, ListOptions } from './listing.ts'

/** What `enqueue` and `vela/testing` need of a started runtime. */
export interface Enqueuer {
  enqueue(name: string, args: unknown, opts: EnqueueOptions): Promise<EnqueuedJob>
  drain(opts?: { scheduled?: boolean }): Promise<DrainResult>
  list(opts?: Omit<ListOptions, 'jobs'>): Promise<JobRow[]>
  retry(id: string): Promise<boolean>
  cancel(id: string): Promise<boolean>
  /** The schedules of the app's jobs: job name, cron expression. */
  schedules(): readonly { readonly job: string; readonly cron: string }[]
}

const kRegistry = Symbol.for('vela.jobs.registry')
type Registry = Map<string, Enqueuer>
const registry = (): Registry => {
  const g = globalThis as { [kRegistry]?: Registry }
  g[kRegistry] ??= new Map()
  return g[kRegistry]
}

/** Routes the named jobs' enqueues to `runtime` until the returned function is called. */
export function register(names: readonly string[], runtime: Enqueuer): () => void {
  const map = registry()
  for (const n of names) map.set(n, runtime)
  return () => {
    for (const n of names) if (map.get(n) === runtime) map.delete(n)
  }
}

/** Every runtime started in this process and not stopped (one per app, as a rule). */
export const runtimes = (): Enqueuer[] => [...new Set(registry().values())]

/** The runtime that runs job `name`; a clear error while none was started. */
export function activeRuntime(name: string): Enqueuer {
  const runtime = registry().get(name)
  if (!runtime)
    throw new VelaError(
      'VELA_ERR_JOB',
      `job ${name}: jobs are not started in this process (the app starts them after its start hook; in a script, call startJobs)`,
    )
  return runtime
}
