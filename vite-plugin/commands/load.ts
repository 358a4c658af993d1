/**
 * How the CLI's commands load an app: one runner per command (app-loader.ts) with the app's own
 * Vite config, or `vela()` alone when it has none, closed when the command is done. The inspection
 * commands (`vela routes`, `middleware`, `audit`, `config`, `openapi`) create the app from
 * `virtual:vela/app`, so discovery is the plugin's `import.meta.glob`, virtual modules and aliases
 * resolve, and the app is created by its own copy of `createApp`. The app's `start` hook is not
 * called, so no database or server is touched; plugins' `init` does run (it is part of compiling
 * the table), as at start-up. `vela migrations generate` and `vela migrate` load its schemas,
 * repository and migrations through it (migrate.ts).
 *
 * Whatever fails in `loadApp` (the Vite config, an import, `createApp` refusing the config or a
 * plugin's `init`) is marked as a load failure: the command could not run, the CLI exits 2.
 */
import type { AppConfig, ResolvedConfig } from '../../server/app/config.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { RouteTable } from '../../server/router/compile.ts'
import type { AppConfigOptions, ImportModule } from '../app-loader.ts'
import { appViteConfig, createAppIn, openAppRunner } from '../app-loader.ts'
import vela from '../index.ts'
import { markAppLoadFailure } from '../load-failure.ts'

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

/** Runs `fn` with a runner for the app in `root`, closed after it. */
export async function withAppRunner<T>(root: string, opts: AppRunnerOptions, fn: (load: ImportModule) => Promise<T>): Promise<T> {
  const runner = await openAppRunner(appViteConfig(root, () => vela({ app: opts.app }), opts))
  try {
    return await fn(runner.load)
  } finally {
    await runner.close()
  }
}

export async function loadApp(root: string): Promise<LoadedApp> {
  try {
    return await withAppRunner(root, {}, async (load) => {
      const app = await createAppIn(load)
      return { config: app.config, table: app.routeTable }
    })
  } catch (err) {
    throw markAppLoadFailure(err)
  }
}
