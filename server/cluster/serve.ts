/**
 * What the built server (`dist/server/index.mjs`, vite-plugin/app-entry.ts) runs once its modules
 * are loaded. `VELA_WORKERS` decides the shape:
 *
 * - unset, empty or `1`: one process, no cluster: start hook, listen, graceful shutdown on SIGTERM
 *   and SIGINT (installShutdown);
 * - `N` (a whole number above 1) or `auto` (`os.availableParallelism()`): a primary (primary.ts)
 *   and N workers (worker.ts) under node:cluster, sharing one port;
 * - anything else: one line naming VELA_WORKERS, exit 1, before the app is created.
 *
 * `VELA_JOBS=work` (jobs/mode.ts) makes it a worker process of the app's jobs: the start hook (the
 * jobs start after it), no listener, the same graceful shutdown (running jobs finish within
 * `jobs.shutdownTimeout`). One process: more job workers are more such processes, or a higher
 * `jobs.concurrency`, so `VELA_WORKERS` above 1 is refused with it. `VELA_JOBS=off` is read by the
 * jobs' start hook (jobs/app-hooks.ts); a value that is neither exits 1 here, like VELA_WORKERS.
 */
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import type { VelaApp } from '../contracts/app.ts'
import { VelaError } from '../errors/vela-error.ts'
import type { JobsMode } from '../../jobs/mode.ts'
import { jobsMode } from '../../jobs/mode.ts'
import { listen, listeningOn } from '../listener/listen.ts'
import { installShutdown } from '../listener/shutdown.ts'
import { runPrimary } from './primary.ts'
import { WORKER_ENV } from './protocol.ts'
import { appName, startOrExit } from './start.ts'
import { runWorker } from './worker.ts'

/** How many workers `VELA_WORKERS` asks for; throws VELA_ERR_CONFIG naming it when it is not a count. */
export function workerCount(value: string | undefined, cores: () => number = availableParallelism): number {
  const v = value?.trim() ?? ''
  if (v === '') return 1
  if (v === 'auto') return Math.max(1, cores())
  if (/^[1-9]\d{0,3}$/.test(v)) return Number(v)
  throw new VelaError(
    'VELA_ERR_CONFIG',
    `VELA_WORKERS must be a whole number from 1 to 9999 or "auto", not ${JSON.stringify(value)}`,
  )
}

/**
 * `config`: the app's config as written, to name the app in the one line a refused config prints
 * (creating the app checks its config, before any start hook).
 */
export async function serveBuilt(
  create: () => VelaApp,
  config?: { bootstrapApplication?: string; environment?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  let workers: number
  let jobs: JobsMode
  try {
    workers = workerCount(env.VELA_WORKERS)
    jobs = jobsMode(env)
    if (jobs === 'work' && workers > 1)
      throw new VelaError(
        'VELA_ERR_CONFIG',
        'VELA_JOBS=work runs one worker process: start more of them, or raise jobs.concurrency, rather than VELA_WORKERS',
      )
  } catch (err) {
    console.error(`vela: ${(err as Error).message}`)
    return process.exit(1)
  }
  // A worker forked by our primary (not a cluster worker of another tool, such as pm2's).
  let app: VelaApp
  try {
    app = create()
  } catch (err) {
    const name = `${config?.bootstrapApplication} (${env.VELA_ENV || config?.environment || 'dev'})`
    console.error(`vela: ${name} could not start: ${(err as Error)?.message ?? err}`)
    if (!String((err as { code?: unknown })?.code ?? '').startsWith('VELA_ERR_')) console.error(err)
    return process.exit(1)
  }
  if (cluster.isWorker && env[WORKER_ENV] === '1') return runWorker(app, { workers })
  if (workers > 1) return runPrimary(app, { workers })
  if (!(await startOrExit(app))) return
  if (jobs === 'work') {
    // Nothing to drain: no listener, so no drain delay either.
    installShutdown({ close: async () => {} }, app, { drainDelayMs: 0 })
    console.log(`vela: ${appName(app)} running its jobs (VELA_JOBS=work, no HTTP); SIGTERM stops`)
    return
  }
  const listener = await listen(app)
  installShutdown(listener, app)
  console.log(`vela: ${appName(app)} listening on ${listeningOn(listener)}`)
}
