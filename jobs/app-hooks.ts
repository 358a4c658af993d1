/**
 * How an app runs its jobs: the app entry (`virtual:vela/app`) passes the config through
 * `withJobs` with the modules of `src/jobs/`. When there are jobs, the app's start hook is
 * followed by `startJobs` and its stop hook preceded by the runtime's stop, so the jobs start on a
 * started, migrated repository and stop before it closes. Without jobs the config is unchanged and
 * the engine is never loaded (it is imported when the jobs start).
 *
 * Which repository: `jobs.repo` in the config, else the `repo` export of `src/repo.ts` (the one
 * `vela migrate` uses). Whether this process runs jobs (mode.ts):
 * - `VELA_JOBS=work` (a worker process; `vela jobs work` sets it): yes;
 * - `VELA_JOBS=off` (a web process): no, it only enqueues;
 * - the `test` environment: only when asked (`drainJobs()` from `vela/testing`);
 * - otherwise `jobs.inApp` (default true); `false` only enqueues.
 * An app without jobs started with `VELA_JOBS=work` refuses to start: the process would do nothing.
 * A cluster primary (`VELA_WORKERS`) serves nothing and starts no jobs; its workers do.
 */
import type { AppConfig } from '../server/contracts/config.ts'
import { VelaError } from '../server/errors/vela-error.ts'
import type { Repo } from '../dbl/repo.ts'
import { jobsFromModules } from './discover.ts'
import { JOBS_ENV, jobsMode } from './mode.ts'
import type { JobsRuntime } from './runtime.ts'

type Loader = () => Promise<unknown>

async function repoFrom(loaders: Readonly<Record<string, Loader>>): Promise<Repo> {
  const load = Object.values(loaders)[0]
  const mod = (load ? await load() : undefined) as { repo?: Repo; default?: Repo } | undefined
  const repo = mod?.repo ?? mod?.default
  if (!repo || typeof repo.adapter !== 'function')
    throw new VelaError(
      'VELA_ERR_CONFIG',
      'the app has jobs (src/jobs/) but no repository for them: export `repo` from src/repo.ts, or set jobs: { repo } in src/app.ts',
    )
  return repo
}

/** The config with the jobs of `modules` started after its start hook and stopped before its stop hook. */
export function withJobs<C extends AppConfig>(
  config: C,
  modules: Readonly<Record<string, unknown>>,
  repoLoaders: Readonly<Record<string, Loader>>,
): C {
  const jobs = jobsFromModules(modules)
  // Read without refusing a bad value here (this runs as the app module loads): the built server
  // refuses one before it creates the app, and with jobs the start hook does.
  if (Object.keys(jobs).length === 0)
    return process.env[JOBS_ENV]?.trim() === 'work'
      ? {
          ...config,
          start() {
            throw new VelaError('VELA_ERR_CONFIG', `${JOBS_ENV}=work, but the app has no jobs (src/jobs/*.ts)`)
          },
        }
      : config
  let runtime: JobsRuntime | undefined
  return {
    ...config,
    async start(app) {
      await config.start?.(app)
      if (app.cluster?.role === 'primary') return
      const jc = config.jobs ?? {}
      const repo = (jc.repo as Repo | undefined) ?? (await repoFrom(repoLoaders))
      const mode = jobsMode()
      const work =
        mode === 'work'
          ? true
          : mode === 'off'
            ? false
            : app.config.environment === 'test'
              ? ('manual' as const)
              : (jc.inApp ?? true)
      const { startJobs } = await import('./runtime.ts')
      runtime = await startJobs({ repo, jobs, config: jc, work })
    },
    async stop() {
      const running = runtime
      runtime = undefined
      try {
        await running?.stop()
      } finally {
        await config.stop?.()
      }
    },
  }
}
