/**
 * Loads an app for the inspection commands (`vela routes`, `middleware`, `audit`, `config`,
 * `openapi`): imports `<root>/src/app.ts`, merges the discovered `src/routes/*.ts` and
 * `src/controllers/*.ts` modules into it as the Vite plugin does (discover.ts, through node's
 * import instead of `import.meta.glob`), and creates it with the runtime's `createApp`. The
 * app's `start` hook is not called, so no database or server is touched; plugins' `init` does run
 * (it is part of compiling the table), as at start-up.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppConfig, ResolvedConfig } from '../../server/app/config.ts'
import { createApp } from '../../server/app/create-app.ts'
import type { RouteTable } from '../../server/router/compile.ts'
import { loadDiscovered, withDiscovered } from '../discover.ts'

export interface LoadedApp {
  readonly config: ResolvedConfig
  readonly table: RouteTable
}

/** The config and route table `createApp` makes for the app: what it would serve, without listening. */
export function inspectApp(app: AppConfig, env: NodeJS.ProcessEnv = process.env): LoadedApp {
  const { config, routeTable } = createApp(app, { env })
  return { config, table: routeTable }
}

export async function loadApp(root: string): Promise<LoadedApp> {
  const entry = resolve(root, 'src/app.ts')
  const mod = (await import(pathToFileURL(entry).href)) as { default?: AppConfig }
  if (!mod.default) throw new Error(`${entry} must default-export the app: export default defineApp({ … })`)
  return inspectApp(withDiscovered(mod.default, await loadDiscovered(resolve(root))))
}
