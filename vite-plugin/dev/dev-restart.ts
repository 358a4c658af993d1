/**
 * Vite restarts its server (an edit of `vite.config.*`, `r` in the terminal, `server.restart()`)
 * by creating the new server first, whose `configureServer` boots the new app, and then tearing
 * the old one down without calling its `close()`: the old app's stop hook would never run, and
 * the new app's start would find the old one's ports and files still held. So each dev app is
 * registered here under the inline config its server was created from, which Vite hands on to
 * the server that replaces it; the new dev app finds the one it replaces and stops it before its
 * own start (dev-app.ts).
 *
 * Process-wide (a registered symbol on `globalThis`): the plugin in a config file and `vela serve`
 * may be two copies of this module (index.ts).
 */
import type { ResolvedConfig } from 'vite'
import type { DevApp } from './dev-app.ts'

const kRegistry = Symbol.for('vela.vite.devApps')
const registry: WeakMap<object, DevApp> = ((globalThis as { [kRegistry]?: WeakMap<object, DevApp> })[kRegistry] ??= new WeakMap())

/** The dev app of the server this config's server replaces (a Vite restart), if any. */
export function replacedDevApp(config: ResolvedConfig): DevApp | undefined {
  return registry.get(config.inlineConfig)
}

/** Records `devApp` as the one a restart of this config's server replaces. */
export function registerDevApp(config: ResolvedConfig, devApp: DevApp): void {
  registry.set(config.inlineConfig, devApp)
}
