/**
 * The OpenAPI document a build writes (spec §4.6 `release`, DESIGN §5 `writeBundle`): when the app
 * has `priv/schemas/`, `priv/assets/openapi.json` with the explorer (`swagger.html` and the
 * swagger-ui files) beside it, written by the same `writeOpenApi` as `vela openapi`. **Choice:**
 * `priv/assets/`, the spec's place, which the app serves with `['/docs/[...]',
 * staticDir('priv/assets')]` (resolved against the working directory, so ship `priv/` with
 * `dist/` and start the server from the app folder). The routes are those the built server
 * serves in its default environment: the app is loaded as the bundle loads it (build-import.ts),
 * with `VELA_ENV` set to the release profile when there is one; its start hook is not run.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { withAppRunner } from './build-import.ts'
import { createAppIn } from './commands/load.ts'
import { writeOpenApi } from './commands/openapi-write.ts'

export const BUILD_OPENAPI_OUTPUT = 'priv/assets/openapi.json'
/** How the plugin logs each file written (followed by its path from the root); `release` reads it. */
export const GENERATED = 'Generated '

/** Writes the document and explorer when `<root>/priv/schemas/` exists; returns the files written. */
export async function writeBuildOpenApi(root: string, profile?: string, appFile?: string): Promise<string[]> {
  if (!existsSync(resolve(root, 'priv/schemas'))) return []
  // The profile is the environment the bundle is built for; without one, as `vela openapi` runs.
  const env = profile === undefined ? process.env : { ...process.env, VELA_ENV: profile }
  // `runner`: the build's process may have no TypeScript loader. The mode is the bundle's.
  return withAppRunner(root, { mode: profile ?? 'production', configLoader: 'runner', app: appFile }, async (load) => {
    const app = await createAppIn(load, env)
    return writeOpenApi(root, app.config.bootstrapApplication, app.routeTable, { output: BUILD_OPENAPI_OUTPUT })
  })
}
