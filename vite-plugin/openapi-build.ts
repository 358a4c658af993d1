/**
 * The OpenAPI document a build writes (spec §4.6 `release`, DESIGN §5 `writeBundle`): when the app
 * has `priv/schemas/`, `priv/assets/openapi.json` with the explorer (`swagger.html` and the
 * swagger-ui files) beside it, written by the same `writeOpenApi` as `vela openapi`. **Choice:**
 * `priv/assets/`, the spec's place, which the app serves with `['/docs/[...]',
 * staticDir('priv/assets')]` (resolved against the working directory, so ship `priv/` with
 * `dist/` and start the server from the app folder). The routes are those the built server
 * serves in its default environment: the app is loaded as `vela openapi` loads it, with `VELA_ENV`
 * set to the release profile when there is one.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppConfig } from '../server/app/config.ts'
import { inspectApp } from './commands/load.ts'
import { writeOpenApi } from './commands/openapi-write.ts'
import { loadDiscovered, withDiscovered } from './discover.ts'

export const BUILD_OPENAPI_OUTPUT = 'priv/assets/openapi.json'
/** How the plugin logs each file written (followed by its path from the root); `release` reads it. */
export const GENERATED = 'Generated '

/** Writes the document and explorer when `<root>/priv/schemas/` exists; returns the files written. */
export async function writeBuildOpenApi(root: string, profile?: string): Promise<string[]> {
  if (!existsSync(resolve(root, 'priv/schemas'))) return []
  const entry = resolve(root, 'src/app.ts')
  const mod = (await import(pathToFileURL(entry).href)) as { default?: AppConfig }
  if (!mod.default) throw new Error(`${entry} must default-export the app: export default defineApp({ … })`)
  // The profile is the environment the bundle is built for; without one, as `vela openapi` runs.
  const env = profile === undefined ? process.env : { ...process.env, VELA_ENV: profile }
  const { config, table } = inspectApp(withDiscovered(mod.default, await loadDiscovered(resolve(root))), env)
  return writeOpenApi(root, config.bootstrapApplication, table, { output: BUILD_OPENAPI_OUTPUT })
}
