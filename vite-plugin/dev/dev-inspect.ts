/**
 * The inspection cache under the dev server: each app that starts serving has its reports
 * (`vela routes`, `plugins`, `audit`, `config`) written to `.vela/inspect.json` in the
 * background, with the files its modules came from and the environment variables they read
 * (cli/commands/inspect-cache.ts), so those commands answer at once while the app is unchanged.
 * Not written when the dev app was given an environment of its own (`createOptions.env`): the
 * commands read the process's. A failure is ignored: the commands then load the app themselves.
 */
import type { VelaApp } from '../../server/app/create-app.ts'
import { writeInspectCache } from '../cli/commands/inspect-cache.ts'
import { REPORT_ENV, inspectReports } from '../cli/commands/inspect-reports.ts'
import type { BackgroundWrite } from './dev-openapi.ts'
import type { EnvReads } from '../env-reads.ts'
import { envRecord } from '../env-reads.ts'

/**
 * Returns the step: call it with each app that starts serving and when its swap began (ms since
 * the epoch); `files()` lists the files of the modules evaluated, `reads` the variables they read.
 */
export function inspectCacheStep(
  root: string,
  files: () => string[],
  reads: EnvReads,
): BackgroundWrite<[VelaApp, number]> {
  let writing: Promise<unknown> = Promise.resolve()
  const step = (app: VelaApp, since: number) => {
    writing = writing
      .then(() =>
        writeInspectCache(root, inspectReports(app.config, app.routeTable), {
          evaluated: files(),
          env: envRecord(reads, REPORT_ENV),
          since,
        }),
      )
      .catch(() => {})
  }
  return Object.assign(step, { written: async () => void (await writing) })
}
