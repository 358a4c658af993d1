/**
 * `vela serve`: the development server (dev-server.ts) for the app in `root`: Vite in middleware
 * mode with `vela()`, the app booted eagerly (its start hook runs before the first request is
 * accepted) and hot-swapped on edits, on the configured port (8080, or PORT). Prints the URL once
 * listening; shuts down gracefully on SIGINT/SIGTERM (server/shutdown.ts), running the app's stop
 * hook and closing Vite.
 */
import { installShutdown } from '../server/shutdown.ts'
import { startDevServer } from './dev-server.ts'

export async function serve(root: string): Promise<void> {
  const server = await startDevServer({ root })
  const config = server.devApp.current.config
  installShutdown(server.listener, { stop: () => server.vite.close() })
  console.log(`vela: ${config.bootstrapApplication} (${config.environment}) listening on ${server.url}`)
}
