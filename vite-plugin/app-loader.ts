/**
 * How Vela gets an app's modules through Vite, for dev, build and the CLI alike.
 *
 * - **The app's Vite config** (`appViteConfig`): its `vite.config.*` when it has one (aliases, other
 *   plugins, `resolve` options, and the `vela()` it lists), else `vela()` alone. A config without
 *   `vela()` is refused by `velaPluginOf`, the one place that says so (a load failure:
 *   load-failure.ts).
 * - **A runner of its own** (`openAppRunner`): a Vite module runner in an SSR dev environment made
 *   from that config, with no dev server, so the plugin's `configureServer` never runs, nor does the
 *   app's `start`; closed by whoever opened it. The CLI opens one per command (cli/commands/load.ts),
 *   the build one per build (build-runner.ts). Modules evaluate as under `vela serve`: virtual
 *   modules (`virtual:vela/migrations`) and aliases resolve. The build cannot use plain `import()`:
 *   `vite build --configLoader runner` leaves no TypeScript loader in the process.
 * - **The dev server's runner** (`devAppRunner`): one on the dev server's own SSR environment, so the
 *   app and what a swap re-evaluates are the server's (dev-modules.ts).
 * - **The app** (`appEntry`, `createAppIn`, app-module.ts): `virtual:vela/app` (app-entry.ts)
 *   imported through any of them; its `create` is the app's own copy of `createApp`. The CLI's
 *   light loader (light/loader.ts) is a runner too, without Vite.
 *
 * **Choice:** the plugin is passed in (`plugin`), not imported: the plugin's build uses this module,
 * and importing `vela` here would make an import cycle.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { InlineConfig, PluginOption, ResolvedConfig, ServerModuleRunnerOptions, ViteDevServer } from 'vite'
// Static: under `--configLoader runner` a dynamic import here would go to the closed runner.
import { createRunnableDevEnvironment, createServerModuleRunner, resolveConfig } from 'vite'
import type { ModuleRunner } from 'vite/module-runner'
import { VelaError } from '../server/errors/vela-error.ts'
import type { AppRunner } from './app-module.ts'
import { failedToLoad, markAppLoadFailure } from './load-failure.ts'
import type { VelaPlugin } from './plugin-api.ts'
import { PLUGIN_NAME } from './plugin-api.ts'

// Kept here for their importers; defined without Vite in app-module.ts (the CLI's light loader uses them).
export type { AppEntry, AppRunner, ImportModule } from './app-module.ts'
export { appEntry, createAppIn } from './app-module.ts'

/** The config files looked for in an app's root (Vite's own list, less its CommonJS ones). */
const CONFIG_FILES = ['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs']

/** The Vite environment the app's modules run in, under every runner. */
export const APP_ENVIRONMENT = 'ssr'

export interface AppConfigOptions {
  /** Vite's mode: which `.env.<mode>` files load and `import.meta.env.MODE` (default: Vite's). */
  readonly mode?: string
  /**
   * How Vite loads the config file (default `bundle`, which needs a TypeScript loader for `vela`:
   * the CLI has one). The build's runner passes `runner`, which needs none.
   */
  readonly configLoader?: InlineConfig['configLoader']
  /** The config file: a path, or `false` for none (`plugin()` alone). Default: the root's `vite.config.*`, if any. */
  readonly configFile?: string | false
}

/** The inline config that gives Vite the app in `root`: its config file, else `plugin()` (`vela()`) alone. */
export function appViteConfig(root: string, plugin: () => PluginOption, opts: AppConfigOptions = {}): InlineConfig {
  const dir = resolve(root)
  const configFile = opts.configFile ?? (CONFIG_FILES.some((f) => existsSync(resolve(dir, f))) ? undefined : false)
  return {
    root: dir,
    mode: opts.mode,
    configFile,
    configLoader: opts.configLoader,
    plugins: configFile === false ? [plugin()] : [],
  }
}

/** The config's `vela()`; a config without it is a load failure saying how to add it. */
export function velaPluginOf(config: ResolvedConfig): VelaPlugin {
  const plugin = config.plugins.find((p) => p.name === PLUGIN_NAME)
  if (plugin) return plugin as VelaPlugin
  throw markAppLoadFailure(
    new VelaError(
      'VELA_ERR_CONFIG',
      `${config.root}: the Vite config must use the plugin: import vela from 'vela/vite'; export default { plugins: [vela()] }`,
    ),
  )
}

const open = new Set<AppRunner>()
let opened = 0

/** How many runners `openAppRunner` opened in this process and how many are open now (tests check none outlives its build). */
export const runnerCounts = (): { opened: number; open: number } => ({ opened, open: open.size })

/** Opens a runner for the app `viteConfig` describes (see appViteConfig); everything that fails is a load failure. */
export async function openAppRunner(viteConfig: InlineConfig): Promise<AppRunner> {
  const config = await resolveConfig({ logLevel: 'error', ...viteConfig }, 'serve').catch(failedToLoad)
  velaPluginOf(config)
  const env = createRunnableDevEnvironment(APP_ENVIRONMENT, config, {
    runnerOptions: { hmr: { logger: false } },
    hot: false,
  })
  let closing: Promise<void> | undefined
  const runner: AppRunner = {
    load: (file) => env.runner.import(file).catch(failedToLoad),
    evaluatedFiles: () => [...env.runner.evaluatedModules.fileToModulesMap.keys()],
    close: () => (closing ??= (open.delete(runner), env.close())),
  }
  open.add(runner)
  opened++
  try {
    await env.init()
  } catch (err) {
    await runner.close()
    failedToLoad(err)
  }
  return runner
}

/** A runner on the dev server's own SSR environment (the modules the dev app serves with). */
export function devAppRunner(server: ViteDevServer, options: ServerModuleRunnerOptions): ModuleRunner {
  return createServerModuleRunner(server.environments[APP_ENVIRONMENT]!, options)
}
