/**
 * The development server `vela serve` runs: Vite in middleware mode with `vela()` (from the app's
 * `vite.config.*`, or added when the app has none: app-loader.ts), and the runtime's node:http
 * listener on the app's port (8080, or PORT) answering with the dev app (dev-app.ts), WebSockets
 * included. A config without `vela()` is refused with the loader's error, and Vite closed. When
 * Vite restarts its server (a config edit), the listener stays and answers with the new server's
 * dev app.
 */
import type { PluginOption, ViteDevServer } from 'vite'
import { createServer } from 'vite'
import type { CloseOptions, Listener } from '../../server/listener/listen.ts'
import { listen } from '../../server/listener/listen.ts'
import { appViteConfig, velaPluginOf } from '../app-loader.ts'
import type { DevApp } from './dev-app.ts'
import { onRegistered } from './dev-restart.ts'
import { followingApp } from './following-app.ts'
import vela, { devAppOf } from '../index.ts'

export interface DevServerOptions {
  root: string
  /** Default: the app's configured port (PORT, else `server.port`, else 8080); 0 for any free port. */
  port?: number
  host?: string
  /** Plugins to use instead of a config file (the config file is then not read). */
  plugins?: PluginOption[]
  /** Called with the new dev app after each restart of Vite's server (a config edit), once it started. */
  onRestart?: (devApp: DevApp) => void
}

export interface DevServer {
  readonly url: string
  readonly listener: Listener
  readonly vite: ViteDevServer
  /** The app the server runs now (a new one after each restart of Vite's server). */
  readonly devApp: DevApp
  /**
   * Stops accepting, lets requests finish, runs the app's stop hook, closes Vite. Idle keep-alive
   * connections (a browser's) close at once unless `idle: 'wait'` says otherwise.
   */
  close(opts?: CloseOptions): Promise<void>
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const viteConfig = appViteConfig(opts.root, () => opts.plugins ?? vela(), {
    configFile: opts.plugins ? false : undefined,
  })
  const vite = await createServer({
    ...viteConfig,
    server: { middlewareMode: true },
    appType: 'custom',
    // Vite's dynamic-import notices about framework internals are noise for an app's developer.
    logLevel: 'error',
  })
  const devApp = () => devAppOf(vite)!
  let listener: Listener
  let unsubscribe = () => {}
  try {
    velaPluginOf(vite.config)
    listener = await listen(
      followingApp(() => devApp().app),
      { port: opts.port, host: opts.host },
    )
    const served = listener
    const attach = (app: DevApp) => {
      if (app.dashboard) app.dashboard.websockets = served.websockets
    }
    attach(devApp())
    // Each app a restart brings gets the listener's WebSockets on its dashboard, and its new token a start line.
    unsubscribe = onRegistered(vite.config, (next) => {
      attach(next)
      opts.onRestart?.(next)
    })
  } catch (err) {
    await vite.close()
    throw err
  }
  let closing: Promise<void> | undefined
  return {
    url: listener.url,
    listener,
    vite,
    get devApp() {
      return devApp()
    },
    close: (o) =>
      (closing ??= (async () => {
        unsubscribe()
        try {
          await listener.close({ idle: 'close', ...o })
        } finally {
          await vite.close()
        }
      })()),
  }
}
