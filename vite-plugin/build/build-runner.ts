/**
 * The build's one module runner (app-loader.ts): opened when a build step first needs the app's
 * modules (`buildStart`'s migration when the app has `src/schemas/`, else `writeBundle`'s look at
 * the app), reused by the next step, closed in `closeBundle`.
 *
 * **Why `closeBundle`:** Vite 8 runs it after every build, failed ones included. A failure in the
 * build phase (`buildStart`, a module that does not compile) runs it twice, once from rolldown
 * with the error and once as Vite closes the bundle; one in output or `writeBundle` once. Closing
 * twice does nothing. Under `--watch` Vite closes only the bundles it wrote, so after a rebuild
 * that failed in `writeBundle` the runner stays open until the next build's `buildStart` (which
 * closes it) or the watcher's close; each build opens its own, so its modules are read afresh.
 *
 * The runner is the build's: the same config file (or none, with the plugin's own options), the
 * build's mode (`.env` files), and, while a step runs, `VELA_ENV` set to the environment the
 * bundle runs in (profile.ts), so module-scope code sees what it will see in the built server.
 */
import type { PluginOption, ResolvedConfig } from 'vite'
import type { AppRunner, ImportModule } from '../app-loader.ts'
import { appViteConfig, openAppRunner } from '../app-loader.ts'
import { buildEnvironment } from '../profile.ts'

/** Runs a build step with the app's modules (see BuildRunner.use). */
export type WithApp = <T>(step: (load: ImportModule) => Promise<T>) => Promise<T>

export class BuildRunner {
  private runner: Promise<AppRunner> | undefined

  /** `plugin`: the `vela()` to give Vite when the build has no config file. */
  constructor(private readonly plugin: () => PluginOption) {}

  /** Runs `step` with the build's runner, opening it on first use. */
  async use<T>(config: ResolvedConfig, step: (load: ImportModule) => Promise<T>): Promise<T> {
    // `runner`: the build's process may have no TypeScript loader (`vite build --configLoader runner`).
    const options = { mode: config.mode, configFile: config.configFile ?? false, configLoader: 'runner' } as const
    this.runner ??= openAppRunner(appViteConfig(config.root, this.plugin, options))
    const { load } = await this.runner
    const saved = process.env.VELA_ENV
    process.env.VELA_ENV = buildEnvironment(config.mode)
    try {
      return await step(load)
    } finally {
      if (saved === undefined) delete process.env.VELA_ENV
      else process.env.VELA_ENV = saved
    }
  }

  /** Closes the runner, if one is open (or opening). */
  async close(): Promise<void> {
    const runner = this.runner
    this.runner = undefined
    await (await runner?.catch(() => undefined))?.close()
  }
}
