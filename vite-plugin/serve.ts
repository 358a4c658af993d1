/**
 * `vela serve`: loads `<root>/src/app.ts`, compiles its routes and listens on the configured port
 * (8080, or PORT). Prints the URL once listening; shuts down gracefully on SIGINT/SIGTERM
 * (server/shutdown.ts).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppConfig } from '../server/app/config.ts'
import { createApp } from '../server/app/create-app.ts'
import { listen } from '../server/listen.ts'
import { installShutdown } from '../server/shutdown.ts'

export async function serve(root: string): Promise<void> {
  const entry = resolve(root, 'src/app.ts')
  const mod = (await import(pathToFileURL(entry).href)) as { default?: AppConfig }
  if (!mod.default) throw new Error(`${entry} must default-export the app: export default defineApp({ … })`)
  const app = createApp(mod.default)
  // The start hook (open pools, run migrations) finishes before the first request is accepted.
  await app.start()
  const listener = await listen(app)
  installShutdown(listener, app)
  console.log(`vela: ${app.config.bootstrapApplication} (${app.config.environment}) listening on ${listener.url}`)
}
