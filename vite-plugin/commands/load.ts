/**
 * Loads an app for the inspection commands (`vela routes`, `middleware`, `audit`, `config`,
 * `openapi`) the way `vela serve` and the build do: through a Vite module runner with the app's
 * own Vite config (build-import.ts), importing `virtual:vela/app`, so discovery is the plugin's
 * `import.meta.glob`, virtual modules and aliases resolve, and the app is created by its own copy
 * of `createApp`. The app's `start` hook is not called, so no database or server is touched;
 * plugins' `init` does run (it is part of compiling the table), as at start-up.
 *
 * Whatever fails in `loadApp` (the Vite config, an import, `createApp` refusing the config or a
 * plugin's `init`) is marked as a load failure: the command could not run, the CLI exits 2.
 */
import type { AppConfig, ResolvedConfig } from '../../server/app/config.ts'
import type { CreateAppOptions, VelaApp } from '../../server/app/create-app.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { RouteTable } from '../../server/router/compile.ts'
import { APP_ENTRY } from '../app-entry.ts'
import type { ImportModule } from '../app-loader.ts'
import { markAppLoadFailure, withAppRunner } from '../app-loader.ts'

export interface LoadedApp {
  readonly config: ResolvedConfig
  readonly table: RouteTable
}

/** The config and route table `createApp` makes for the app: what it would serve, without listening. */
export function inspectApp(app: AppConfig, env: NodeJS.ProcessEnv = process.env): LoadedApp {
  const { config, routeTable } = createApp(app, { env })
  return { config, table: routeTable }
}

/** The app `virtual:vela/app` creates in a runner (its `create` is the app's own `createApp`); not started. */
export async function createAppIn(load: ImportModule, env: NodeJS.ProcessEnv = process.env): Promise<VelaApp> {
  const { create } = (await load(APP_ENTRY)) as { create(opts: CreateAppOptions): VelaApp }
  return create({ env })
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
