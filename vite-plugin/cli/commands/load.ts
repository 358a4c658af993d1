/**
 * How the CLI's commands load an app: one runner per command (app-loader.ts) with the app's own
 * Vite config, or `vela()` alone when it has none, closed when the command is done. The inspection
 * commands (`vela routes`, `plugins`, `audit`, `config`, `openapi`) create the app from
 * `virtual:vela/app`, so discovery is the plugin's `import.meta.glob`, virtual modules and aliases
 * resolve, and the app is created by its own copy of `createApp`. The app's `start` hook is not
 * called, so no database or server is touched; plugins' `init` does run (it is part of compiling
 * the table), as at start-up. `vela migrations generate` and `vela migrate` load its schemas,
 * repository and migrations through it (migrate.ts).
 *
 * Whatever fails in `loadApp` (the Vite config, an import, `createApp` refusing the config or a
 * plugin's `init`) is marked as a load failure: the command could not run, the CLI exits 2.
 */
import type { AppConfig, ResolvedConfig } from '../../../server/app/config.ts'
import { createApp } from '../../../server/app/create-app.ts'
import type { RouteTable } from '../../../server/router/compile.ts'
import type { AppConfigOptions } from '../../app-loader.ts'
import type { AppRunner, ImportModule } from '../../app-module.ts'
import { createAppIn } from '../../app-module.ts'
import type { EnvReads } from '../../env-reads.ts'
import { envRecord, trackEnvReads } from '../../env-reads.ts'
import { markAppLoadFailure } from '../../load-failure.ts'
import { lightRunnerFor } from '../../light/for-app.ts'
import { writeInspectCache } from './inspect-cache.ts'
import type { Reports } from './inspect-reports.ts'
import { REPORT_ENV, inspectReports } from './inspect-reports.ts'

export interface LoadedApp {
  readonly config: ResolvedConfig
  readonly table: RouteTable
}

/** The config and route table `createApp` makes for the app: what it would serve, without listening. */
export function inspectApp(app: AppConfig, env: NodeJS.ProcessEnv = process.env): LoadedApp {
  const { config, routeTable } = createApp(app, { env })
  return { config, table: routeTable }
}

export interface AppRunnerOptions extends Pick<AppConfigOptions, 'mode' | 'configLoader'> {
  /** `vela({ app })` when the app has no config file (its config's own `vela()` otherwise). */
  readonly app?: string
}

/**
 * Runs `fn` with a runner for the app in `root`, closed after it: the light loader's when it can
 * load the app (light/for-app.ts), else Vite's. When `fn` fails before any module of the app ran
 * (a module the light loader does not load as Vite would, a missing export, a missing file), it
 * runs again with Vite's, so the app loads, or fails with Vite's own message, as it did before the
 * light loader. What each command does first is load an app module, so nothing of `fn` is redone.
 */
export async function withAppRunner<T>(
  root: string,
  opts: AppRunnerOptions,
  fn: (load: ImportModule, runner: AppRunner) => Promise<T>,
): Promise<T> {
  const light = await lightRunnerFor(root, opts)
  if (light) {
    try {
      return await fn(light.load, light)
    } catch (err) {
      // Nothing of the app ran (the command's own steps come after an app module): Vite's turn.
      if (light.ran()) throw err
    } finally {
      await light.close()
    }
  }
  // Vite, and the plugin, are imported only now.
  const [{ appViteConfig, openAppRunner }, { default: vela }] = await Promise.all([
    import('../../app-loader.ts'),
    import('../../index.ts'),
  ])
  const runner = await openAppRunner(appViteConfig(root, () => vela({ app: opts.app }), opts))
  try {
    return await fn(runner.load, runner)
  } finally {
    await runner.close()
  }
}

/** What loading the app read, for the inspection cache: the environment variables its modules read and the files they came from. */
export interface LoadTrace {
  readonly reads: EnvReads
  evaluated: string[]
}

export async function loadApp(root: string, trace?: LoadTrace): Promise<LoadedApp> {
  try {
    return await withAppRunner(root, {}, async (load, runner) => {
      const app = trace ? await trackEnvReads(trace.reads, () => createAppIn(load)) : await createAppIn(load)
      if (trace) trace.evaluated = runner.evaluatedFiles()
      return { config: app.config, table: app.routeTable }
    })
  } catch (err) {
    throw markAppLoadFailure(err)
  }
}

/**
 * The inspection reports of the app in `root`, loaded (the cache is not consulted), and the cache
 * written from them for the next command (inspect-cache.ts).
 */
export async function loadReports(root: string): Promise<Reports> {
  const since = Date.now()
  const trace: LoadTrace = { reads: new Map(), evaluated: [] }
  const { config, table } = await loadApp(root, trace)
  const reports = inspectReports(config, table)
  await writeInspectCache(root, reports, { evaluated: trace.evaluated, env: envRecord(trace.reads, REPORT_ENV), since })
  return reports
}
