/**
 * The build's look at the app (`writeBundle`): the app is loaded as the bundle loads it, through the
 * build's runner (build-runner.ts: in the environment the bundle runs in by default, the profile
 * else `prod`), its start hook not run, to learn
 * - its views folder (`views.dir`, default `src/views`), which the build copies under `dist/`
 *   (build-files.ts);
 * - the OpenAPI document: when the app has `priv/schemas/`,
 *   `priv/assets/openapi.json` with the explorer (`swagger.html` and the swagger-ui files) beside
 *   it, written by the same `writeOpenApi` as `vela openapi`, for the routes that environment
 *   serves. **Choice:** written in the app's `priv/assets/` (served with
 *   `['/docs/[...]', staticDir('priv/assets')]`), and from there copied with the rest of `priv/`
 *   into `dist/priv/`, where the built server's `staticDir` finds it (its app root is `dist/`).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { appEntry, createAppIn } from '../app-loader.ts'
import type { WithApp } from './build-runner.ts'
import type { OpenApiVersion } from '../openapi/document.ts'
import { OPENAPI_OUTPUT, writeOpenApi } from '../openapi/write.ts'

export const BUILD_OPENAPI_OUTPUT = OPENAPI_OUTPUT
export const DEFAULT_VIEWS_DIR = 'src/views'

export interface BuiltAppInfo {
  /** The app's `views.dir` as configured (relative to the root, or absolute). */
  readonly viewsDir: string
  /** The OpenAPI files written (none without `priv/schemas/`). */
  readonly generated: readonly string[]
}

/** Loads the app in `root` with the build's runner; writes its OpenAPI files when it has `priv/schemas/`. */
export async function inspectForBuild(root: string, withApp: WithApp, openapi?: OpenApiVersion): Promise<BuiltAppInfo> {
  return withApp(async (load) => {
    const { config } = await appEntry(load)
    const viewsDir = config.views?.dir ?? DEFAULT_VIEWS_DIR
    if (!existsSync(resolve(root, 'priv/schemas'))) return { viewsDir, generated: [] }
    const app = await createAppIn(load)
    return {
      viewsDir,
      generated: await writeOpenApi(root, app.config.bootstrapApplication, app.routeTable, {
        output: BUILD_OPENAPI_OUTPUT,
        openapi,
      }),
    }
  })
}
