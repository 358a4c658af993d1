/**
 * The plugin under vitest. Vitest makes a Vite server from the app's own `vite.config.ts` (so
 * `vela()` is in it) to run the test files; that server serves modules, it must not run the app:
 *
 * - `isVitestServer`: `configureServer` boots no dev app there (it would start the app's database
 *   and, since vitest makes that server's SSR environment inline every package, fail on the first
 *   CommonJS one, `pg`: `require is not defined`). Tests get their app from `createTestApp`.
 * - `vitestConfig`: `vela/testing` imports `virtual:vela/app`, which only Vite resolves, while
 *   vitest hands installed packages to Node. **Choice:** only `vela/testing`'s folder is inlined
 *   (processed by Vite); the rest of vela and its dependencies (`pg` included) stay Node's, so a
 *   test file does not re-evaluate the framework, and CommonJS packages never go through Vite.
 *   **Choice:** the test workers run V8 with `--liftoff-only` (`TEST_WORKER_FLAGS`): each test
 *   file starts an embedded database of its own, and with V8's default tiering its optimizing
 *   compiler spends about 3 s of CPU and 400 MB per start on PostgreSQL's WebAssembly code, which
 *   a test file's few queries never repay (`vela migrate` runs with the flag for the same reason).
 *   Only how V8 compiles WebAssembly changes, never what the code does.
 * - `writeRouteTypesForVitest`: `.vela/routes.d.ts` is written as vitest starts, through a runner
 *   of its own (vitest's server inlines every package, see above); a failure is a warning, never
 *   a failed run: the tests report what is wrong with the app.
 */
import { fileURLToPath } from 'node:url'
import type { PluginOption, ResolvedConfig, UserConfig } from 'vite'
import { normalizePath } from 'vite'
import { appViteConfig, openAppRunner } from './app-loader.ts'
import { writeRouteTypesWith } from './route-types-write.ts'

/**
 * Vitest's own Vite server: `VITEST` is set and vitest's plugins are in it. `VITEST` alone is not
 * enough: a test may start a dev server of its own (in a vitest worker, where `VITEST` is set too).
 */
export function isVitestServer(config: ResolvedConfig): boolean {
  return !!process.env.VITEST && config.plugins.some((p) => p.name === 'vitest' || p.name.startsWith('vitest:'))
}

// vela/testing's folder, beside this one in the sources and in the compiled package alike.
const TESTING_DIR = normalizePath(fileURLToPath(new URL('../server/testing/', import.meta.url)))

/** V8 flags of the app's test workers: WebAssembly compiled by the baseline compiler only (see above). */
export const TEST_WORKER_FLAGS: readonly string[] = ['--liftoff-only']

/** The config vitest needs (its `test` key; Vite ignores it); nothing outside vitest. */
export function vitestConfig(): UserConfig {
  if (!process.env.VITEST) return {}
  const inline = new RegExp(TESTING_DIR.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return { test: { server: { deps: { inline: [inline] } }, execArgv: [...TEST_WORKER_FLAGS] } } as UserConfig
}

/** Writes the app's `.vela/routes.d.ts` at vitest's start (`plugin` makes the app's `vela()` when it has no config file). */
export async function writeRouteTypesForVitest(config: ResolvedConfig, plugin: () => PluginOption): Promise<void> {
  try {
    const runner = await openAppRunner(appViteConfig(config.root, plugin, { configFile: config.configFile ?? false }))
    try {
      await writeRouteTypesWith(config.root, runner.load)
    } finally {
      await runner.close()
    }
  } catch (err) {
    config.logger.warn(`vela: could not write .vela/routes.d.ts: ${err instanceof Error ? err.message : String(err)}`)
  }
}
