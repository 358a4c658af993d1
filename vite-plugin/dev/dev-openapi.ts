/**
 * The OpenAPI document under the dev server: when the app has `priv/schemas/`, the dev server
 * writes `priv/assets/openapi.json` with its explorer (the files `vite build` and `vela openapi
 * --output priv/assets/openapi.json` write, by the same `writeOpenApi`) once the app has loaded,
 * and again after each swap, so a route such as `['/docs/[...]', staticDir('priv/assets')]` shows
 * the routes being served. **Choice:** written in the background, never awaited by a swap (the
 * edit's response does not wait for it); unchanged files are not rewritten, changed ones are
 * replaced atomically (openapi/write.ts). A failure is logged, once per distinct message. Closing
 * the dev server waits for a write in progress, so a stop never leaves a temporary file behind.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { VelaApp } from '../../server/app/create-app.ts'
import type { OpenApiVersion } from '../openapi/document.ts'
import { writeOpenApi } from '../openapi/write.ts'
import { BUILD_OPENAPI_OUTPUT } from '../build/openapi-build.ts'

/** A step writing files in the background; `written()` resolves once the writes asked for so far are done. */
export type BackgroundWrite<A extends unknown[]> = ((...args: A) => void) & { written(): Promise<void> }

/** Returns the step: call it with each app that starts serving. */
export function openApiStep(
  root: string,
  log: (message: string) => void,
  openapi?: OpenApiVersion,
): BackgroundWrite<[VelaApp]> {
  let writing: Promise<void> = Promise.resolve()
  let first = true
  let lastError: string | undefined
  const step = (app: VelaApp) => {
    if (!existsSync(resolve(root, 'priv/schemas'))) return
    // One write at a time, in swap order: the last one describes the app serving.
    writing = writing.then(async () => {
      try {
        await writeOpenApi(root, app.config.bootstrapApplication, app.routeTable, {
          output: BUILD_OPENAPI_OUTPUT,
          openapi,
        })
        if (first)
          log(
            `wrote ${BUILD_OPENAPI_OUTPUT} and its explorer (swagger.html) from priv/schemas; kept up to date on every swap`,
          )
        first = false
        lastError = undefined
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err)
        if (message !== lastError) console.error(`vela: could not write ${BUILD_OPENAPI_OUTPUT}: ${message}`)
        lastError = message
      }
    })
  }
  return Object.assign(step, { written: () => writing })
}
