/**
 * `.vela/routes.d.ts` under the dev server: written once the app has loaded and again after each
 * swap that loads new code, so the editor's `Routes` follow the routes being served.
 * **Choice:** written in the background, never awaited by a swap, one write at a time in swap
 * order (the last describes the app serving); an unchanged file is not rewritten
 * (route-types-write.ts). A failure is logged once per distinct message and never stops the app.
 */
import type { AppConfig } from '../../server/app/config.ts'
import type { VelaApp } from '../../server/app/create-app.ts'
import { writeRouteTypes } from '../route-types-write.ts'

/** Returns the step: call it with each app loaded and the config it was created from. */
export function routeTypesStep(root: string): (app: VelaApp, config: AppConfig) => Promise<void> {
  let writing: Promise<void> = Promise.resolve()
  let lastError: string | undefined
  return (app, config) =>
    (writing = writing.then(async () => {
      try {
        await writeRouteTypes(root, config, app.routeTable)
        lastError = undefined
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err)
        if (message !== lastError) console.error(`vela: could not write .vela/routes.d.ts: ${message}`)
        lastError = message
      }
    }))
}
