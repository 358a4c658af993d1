/**
 * The development server `vela serve` runs: Vite in middleware mode with `vela()` (from the app's
 * `vite.config.*`, or added when the app has none), and the runtime's node:http listener on the
 * app's port (8080, or PORT) answering with the dev app (dev-app.ts), WebSockets included.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { PluginOption, ViteDevServer } from 'vite'
import { createServer } from 'vite'
import type { Listener } from '../server/listener/listen.ts'
import { listen } from '../server/listener/listen.ts'
import { CONFIG_FILES } from './build.ts'
import type { DevApp } from './dev-app.ts'
import vela, { devAppOf } from './index.ts'

export interface DevServerOptions {
  root: string
  /** Default: the app's configured port (PORT, else `server.port`, else 8080); 0 for any free port. */
  port?: number
  host?: string
  /** Plugins to use instead of a config file (the config file is then not read). */
  plugins?: PluginOption[]
}

export interface DevServer {
  readonly url: string
  readonly listener: Listener
  readonly vite: ViteDevServer
  readonly devApp: DevApp
  /** Stops accepting, lets requests finish, runs the app's stop hook, closes Vite. */
  close(opts?: { timeoutMs?: number }): Promise<void>
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const root = resolve(opts.root)
  const hasConfig = !opts.plugins && CONFIG_FILES.some((f) => existsSync(resolve(root, f)))
  const vite = await createServer({
    root,
    configFile: hasConfig ? undefined : false,
    plugins: hasConfig ? [] : (opts.plugins ?? [vela()]),
    server: { middlewareMode: true },
    appType: 'custom',
    // Vite's dynamic-import notices about framework internals are noise for an app's developer.
    logLevel: 'error',
  })
  const devApp = devAppOf(vite)
  if (!devApp) {
    await vite.close()
    throw new Error(`${root}: the Vite config must use the plugin: import vela from 'vela/vite'; export default { plugins: [vela()] }`)
  }
  let listener: Listener
  try {
    listener = await listen(devApp.app, { port: opts.port, host: opts.host })
  } catch (err) {
    await vite.close()
    throw err
  }
  let closing: Promise<void> | undefined
  return {
    url: listener.url,
    listener,
    vite,
    devApp,
    close: (o) =>
      (closing ??= (async () => {
        try {
          await listener.close(o)
        } finally {
          await vite.close()
        }
      })()),
  }
}
