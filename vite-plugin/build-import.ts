/**
 * Loads the app's own modules (TypeScript) through a Vite module runner made for the call and
 * closed after it, with the app's Vite config: its `vite.config.*` when it has one (aliases, other
 * plugins, `resolve` options, and the `vela()` it lists), else `vela()` alone, as `vela serve` and
 * `vela release` decide. Modules are evaluated by the SSR environment, the one `vela serve` runs
 * the app in, so virtual modules (`virtual:vela/migrations`) and aliases resolve as they do there.
 * No dev server is created: the plugin's `configureServer` never runs, nor does the app's `start`.
 *
 * Used by the CLI (the inspection commands, `vela migrations generate`, `vela migrate`) and by the
 * build (`buildStart`'s schemas and migrations, `writeBundle`'s app for its OpenAPI document),
 * which cannot use plain `import()`: `vite build --configLoader runner` leaves no TypeScript loader
 * in the process (the runner that loaded the config is closed by then).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { InlineConfig } from 'vite'
// Static: under `--configLoader runner` a dynamic import here would go to the closed runner.
import { createRunnableDevEnvironment, resolveConfig } from 'vite'
import { CONFIG_FILES } from './build.ts'
import vela from './index.ts'
import { VelaError } from '../server/errors/vela-error.ts'

export type ImportModule = (file: string) => Promise<Record<string, unknown>>

// Errors met loading the app (its Vite config, importing one of its modules) are remembered, not
// wrapped (messages, code frames and `instanceof` checks stay as they were): the CLI exits 2 for
// them, "could not run", and 1 for a command's own failure.
const loadFailures = new WeakSet<object>()

/** Remembers `err` (or, if it is not an object, an Error made of it) as a load failure; returns it. */
export function markAppLoadFailure(err: unknown): object {
  const error = typeof err === 'object' && err !== null ? err : new Error(String(err))
  loadFailures.add(error)
  return error
}

/** Whether `err`, or an error it wraps as its `cause` (a few levels deep), was marked by markAppLoadFailure. */
export function isAppLoadFailure(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (loadFailures.has(e)) return true
  }
  return false
}

const failedToLoad = (err: unknown): never => {
  throw markAppLoadFailure(err)
}

export interface AppRunnerOptions {
  /** Vite's mode: which `.env.<mode>` files load and `import.meta.env.MODE` (default: `development`). */
  readonly mode?: string
  /**
   * How Vite loads the config file (default `bundle`, which needs a TypeScript loader for `vela`:
   * the CLI has tsx). The build passes `runner`, which needs none.
   */
  readonly configLoader?: InlineConfig['configLoader']
  /** `vela({ app })` when the app has no config file (its config's own `vela()` otherwise). */
  readonly app?: string
}

export async function withAppRunner<T>(root: string, opts: AppRunnerOptions, fn: (load: ImportModule) => Promise<T>): Promise<T> {
  const dir = resolve(root)
  const hasConfig = CONFIG_FILES.some((f) => existsSync(resolve(dir, f)))
  const config = await resolveConfig(
    {
      root: dir,
      mode: opts.mode,
      configFile: hasConfig ? undefined : false,
      configLoader: opts.configLoader,
      plugins: hasConfig ? [] : [vela({ app: opts.app })],
      logLevel: 'error',
    },
    'serve',
  ).catch(failedToLoad)
  if (!config.plugins.some((p) => p.name === 'vela')) {
    throw markAppLoadFailure(new VelaError('VELA_ERR_CONFIG', `${dir}: the Vite config must use the plugin: import vela from 'vela/vite'; export default { plugins: [vela()] }`))
  }
  const env = createRunnableDevEnvironment('ssr', config, { runnerOptions: { hmr: { logger: false } }, hot: false })
  await env.init().catch(failedToLoad)
  try {
    return await fn((file) => env.runner.import(file).catch(failedToLoad))
  } finally {
    await env.close()
  }
}
