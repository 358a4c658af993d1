/**
 * Loads the app's own modules (TypeScript) while a build runs, for `buildStart` (schemas and
 * migrations) and `writeBundle` (the app, for its OpenAPI document): through a Vite module runner
 * of its own, made for the call and closed after it. Plain `import()` would need a TypeScript
 * loader in the build's process, which `vite build --configLoader runner` does not leave behind
 * (the runner that loaded the config is closed by then). The app comes through
 * `virtual:vela/app`, discovery included, exactly as the bundle builds it, and its `createApp` is
 * the copy of `vela` its own modules use.
 */
import type { Plugin } from 'vite'
// Static: under `--configLoader runner` a dynamic import here would go to the closed runner.
import { createRunnableDevEnvironment, resolveConfig } from 'vite'
import { APP_ENTRY, appEntrySource } from './app-entry.ts'

export type ImportModule = (file: string) => Promise<Record<string, unknown>>

export async function withBuildRunner<T>(root: string, appFile: string | undefined, fn: (load: ImportModule) => Promise<T>): Promise<T> {
  const appEntry: Plugin = {
    name: 'vela:build-import',
    resolveId: (id) => (id === APP_ENTRY ? `\0${id}` : undefined),
    load: (id) => (id === `\0${APP_ENTRY}` ? appEntrySource(appFile) : undefined),
  }
  const config = await resolveConfig(
    {
      root,
      configFile: false,
      envDir: false,
      logLevel: 'error',
      plugins: [appEntry],
      // vela ships TypeScript: it goes through the runner, not node, even from node_modules.
      environments: { vela_build: { consumer: 'server', dev: { moduleRunnerTransform: true }, resolve: { noExternal: ['vela'] } } },
    },
    'serve',
  )
  const env = createRunnableDevEnvironment('vela_build', config, { runnerOptions: { hmr: { logger: false } }, hot: false })
  await env.init()
  try {
    return await fn((file) => env.runner.import(file))
  } finally {
    await env.close()
  }
}
