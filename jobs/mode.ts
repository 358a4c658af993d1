/**
 * `VELA_JOBS`: what one process of a deployed app does with its jobs, set per process so one build
 * serves both shapes (a web process and a worker process from the same image):
 *
 * - unset or empty: as the config says (`jobs.inApp`, default true: serve and run jobs);
 * - `off`: serve requests and enqueue, run no jobs (web processes, when workers run them);
 * - `work`: run jobs and serve no HTTP (worker processes: `VELA_JOBS=work node dist/server/index.mjs`;
 *   `vela jobs work` sets it when running from sources).
 *
 * Imports nothing of the engine: the built server reads it before the app starts.
 */
import { VelaError } from '../server/errors/vela-error.ts'

/** The variable's name. */
export const JOBS_ENV = 'VELA_JOBS'

/** What `VELA_JOBS` asks of this process: `work`, `off`, or undefined (the config decides). */
export type JobsMode = 'work' | 'off' | undefined

/**
 * The mode `VELA_JOBS` sets; a value other than `work`, `off` or empty throws VELA_ERR_CONFIG naming it.
 *
 * @example
 * jobsMode({ VELA_JOBS: 'work' }) // 'work'
 */
export function jobsMode(env: NodeJS.ProcessEnv = process.env): JobsMode {
  const v = env[JOBS_ENV]?.trim() ?? ''
  if (v === '') return undefined
  if (v === 'work' || v === 'off') return v
  throw new VelaError(
    'VELA_ERR_CONFIG',
    `${JOBS_ENV} must be "work" (run jobs, serve no HTTP), "off" (serve, run no jobs) or unset, not ${JSON.stringify(env[JOBS_ENV])}`,
  )
}
