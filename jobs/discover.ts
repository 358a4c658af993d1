/**
 * Jobs found in an app's `src/jobs/*.ts` modules, by name: the file's name for a default export
 * (`src/jobs/send_welcome.ts` → `send_welcome`), `<file>.<export>` for a named one. Imports no
 * engine: the app entry uses it to know whether there are jobs at all.
 */
import type { Job } from './define.ts'
import { isJob } from './define.ts'

/**
 * The jobs the modules export, keyed by name (for `startJobs` in a script or a tool).
 *
 * @example
 * const jobs = jobsFromModules({ 'src/jobs/send_welcome.ts': await import('./src/jobs/send_welcome.ts') })
 * // { send_welcome: … }
 */
export function jobsFromModules(modules: Readonly<Record<string, unknown>>): Record<string, Job<never>> {
  const jobs: Record<string, Job<never>> = {}
  for (const [key, mod] of Object.entries(modules)) {
    const file = /([^/]+?)\.[cm]?[jt]s$/.exec(key)?.[1] ?? key
    if (typeof mod !== 'object' || mod === null) continue
    for (const [exported, value] of Object.entries(mod)) {
      if (!isJob(value)) continue
      jobs[exported === 'default' ? file : `${file}.${exported}`] = value
    }
  }
  return jobs
}
