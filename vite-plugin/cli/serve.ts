/**
 * `vela serve`: the development server (dev-server.ts) for the app in `root`: Vite in middleware
 * mode with `vela()`, the app booted eagerly (its start hook runs before the first request is
 * accepted) and hot-swapped on edits, on the configured port (8080, or PORT). Prints the URL once
 * listening (the address it is bound to); shuts down gracefully on SIGINT/SIGTERM
 * (server/listener/shutdown.ts), running the app's stop hook (bounded) and closing Vite. **Choice:**
 * idle keep-alive connections (a browser keeps some) close at once rather than at their keep-alive
 * timeout, so Ctrl-C is quick; a production server waits for them (nothing sent is lost). An app that fails to load or start does not stop it: the error
 * is printed, requests get a 503 and the next edit that fixes it starts the app (dev-app.ts).
 */
import { listeningOn } from '../../server/listener/listen.ts'
import { installShutdown } from '../../server/listener/shutdown.ts'
import type { DevApp } from '../dev/dev-app.ts'
import type { DevServer } from '../dev/dev-server.ts'
import { startDevServer } from '../dev/dev-server.ts'

export async function serve(root: string): Promise<void> {
  let server: DevServer | undefined
  // After a restart of Vite's server (a config edit) the new app has a new dashboard token: the line again, with its link.
  server = await startDevServer({ root, onRestart: (devApp) => server && console.log(startLine(server, devApp)) })
  const started = server
  installShutdown(started.listener, { stop: () => started.vite.close() }, { idle: 'close' })
  console.log(startLine(started, started.devApp))
}

/** `vela: <app> (<env>) listening on <address> · dashboard <link>`, for `devApp` served by `server`. */
function startLine(server: DevServer, devApp: DevApp): string {
  const config = devApp.current.config
  const waiting = devApp.failure ? ' (answering 503 until an edit fixes the error above)' : ''
  const dashboard =
    devApp.dashboard && config.environment === 'dev' ? ` · dashboard ${devApp.dashboard.link(server.url)}` : ''
  return `vela: ${config.bootstrapApplication} (${config.environment}) listening on ${listeningOn(server.listener)}${dashboard}${waiting}`
}
