/**
 * The build's look at the app (DESIGN §5 `writeBundle`): the app is loaded once as the bundle loads
 * it (build-import.ts), in the environment the bundle runs in by default (profile.ts: the profile,
 * else `prod`), its start hook not run, to learn
 * - its views folder (`views.dir`, default `src/views`), which the build copies under `dist/`
 *   (build-files.ts);
 * - the OpenAPI document (spec §4.6 `release`): when the app has `priv/schemas/`,
 *   `priv/assets/openapi.json` with the explorer (`swagger.html` and the swagger-ui files) beside
 *   it, written by the same `writeOpenApi` as `vela openapi`, for the routes that environment
 *   serves. **Choice:** written in the app's `priv/assets/`, the spec's place (served with
 *   `['/docs/[...]', staticDir('priv/assets')]`), and from there copied with the rest of `priv/`
 *   into `dist/priv/`, where the built server's `staticDir` finds it (its app root is `dist/`).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { AppConfig } from '../server/app/config.ts'
import { APP_ENTRY } from './app-entry.ts'
import { withAppRunner } from './app-loader.ts'
import { createAppIn } from './commands/load.ts'
import { writeOpenApi } from './commands/openapi-write.ts'
import { buildEnvironment } from './profile.ts'

export const BUILD_OPENAPI_OUTPUT = 'priv/assets/openapi.json'
/** How the plugin logs each file written (followed by its path from the root); `release` reads it. */
export const GENERATED = 'Generated '
export const DEFAULT_VIEWS_DIR = 'src/views'

export interface BuiltAppInfo {
  /** The app's `views.dir` as configured (relative to the root, or absolute). */
  readonly viewsDir: string
  /** The OpenAPI files written (none without `priv/schemas/`). */
  readonly generated: readonly string[]
}

/** Loads the app in `root` for the build `profile` (Vite mode); writes its OpenAPI files when it has `priv/schemas/`. */
export async function inspectForBuild(root: string, profile?: string, appFile?: string): Promise<BuiltAppInfo> {
  // As in the bundle, whose first module sets it: module-scope code of the app sees it too.
  const saved = process.env.VELA_ENV
  process.env.VELA_ENV = buildEnvironment(profile)
  try {
    // `runner`: the build's process may have no TypeScript loader. The mode is the bundle's.
    return await withAppRunner(root, { mode: profile ?? 'production', configLoader: 'runner', app: appFile }, async (load) => {
      const { config } = (await load(APP_ENTRY)) as { config: AppConfig }
      const viewsDir = config.views?.dir ?? DEFAULT_VIEWS_DIR
      if (!existsSync(resolve(root, 'priv/schemas'))) return { viewsDir, generated: [] }
      const app = await createAppIn(load, process.env)
      return { viewsDir, generated: await writeOpenApi(root, app.config.bootstrapApplication, app.routeTable, { output: BUILD_OPENAPI_OUTPUT }) }
    })
  } finally {
    if (saved === undefined) delete process.env.VELA_ENV
    else process.env.VELA_ENV = saved
  }
}
