/**
 * Vite restarts its server (an edit of `vite.config.*`, `r` in the terminal, `server.restart()`)
 * by creating the new server first, whose `configureServer` boots the new app, and then tearing
 * the old one down without calling its `close()`: the old app's stop hook would never run, and
 * the new app's start would find the old one's ports and files still held. So each dev app is
 * registered here under the inline config its server was created from, which Vite hands on to
 * the server that replaces it; the new dev app finds the one it replaces and stops it before its
 * own start (dev-app.ts).
 *
 * Whoever runs the server (`vela serve`'s listener) hears of each dev app registered after a
 * restart (`onRegistered`): its dashboard needs the listener's WebSockets, and its new token a
 * new start line.
 *
 * Process-wide (a registered symbol on `globalThis`): the plugin in a config file and `vela serve`
 * may be two copies of this module (index.ts).
 */
import type { ResolvedConfig } from 'vite'
import type { DevApp } from './dev-app.ts'

const kRegistry = Symbol.for('vela.vite.devApps')
const registry: WeakMap<object, DevApp> = ((globalThis as { [kRegistry]?: WeakMap<object, DevApp> })[kRegistry] ??=
  new WeakMap())
const kListeners = Symbol.for('vela.vite.devAppListeners')
type Listeners = WeakMap<object, Set<(devApp: DevApp) => void>>
const listeners: Listeners = ((globalThis as { [kListeners]?: Listeners })[kListeners] ??= new WeakMap())

/** The dev app of the server this config's server replaces (a Vite restart), if any. */
export function replacedDevApp(config: ResolvedConfig): DevApp | undefined {
  return registry.get(config.inlineConfig)
}

/** Records `devApp` as the one a restart of this config's server replaces. */
export function registerDevApp(config: ResolvedConfig, devApp: DevApp): void {
  registry.set(config.inlineConfig, devApp)
  for (const listener of listeners.get(config.inlineConfig) ?? []) listener(devApp)
}

/** Calls `listener` with each dev app registered from now on for this config's server and those replacing it; returns the unsubscribe function. */
export function onRegistered(config: ResolvedConfig, listener: (devApp: DevApp) => void): () => void {
  let set = listeners.get(config.inlineConfig)
  if (!set) listeners.set(config.inlineConfig, (set = new Set()))
  set.add(listener)
  return () => void set.delete(listener)
}
