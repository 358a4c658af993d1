/**
 * `vela types`: writes `.vela/routes.d.ts`, the app's routes as the `Routes` type of
 * `virtual:vela/routes` for `createClient<Routes>` (route-types.ts), and prints `Generated <path>`
 * (or that it was up to date). The dev server, `vite build` and vitest write the same file.
 */
import { markAppLoadFailure } from '../../load-failure.ts'
import { defineCommand } from './args.ts'

export const typesCommand = defineCommand({
  name: 'types',
  summary: "write .vela/routes.d.ts: the app's routes as types for vela/client",
  description: `Writes .vela/routes.d.ts: one entry per METHOD /path with its params, query, body and reply
body per status (from validate, responses and the handlers' replies), the Routes type that
createClient<Routes>(baseUrl) from vela/client checks calls against. Import it with
import type { Routes } from 'virtual:vela/routes' (the app's tsconfig includes .vela/routes.d.ts).`,
  options: {},
  example: 'vela types --root apps/shop',
  async run({ root, display }) {
    // Imported here: the CLI loads Vite only for the command that needs it.
    const { writeRouteTypesWith } = await import('../../route-types-write.ts')
    const { withAppRunner } = await import('./load.ts')
    const result = await withAppRunner(root, {}, (load) => writeRouteTypesWith(root, load)).catch((err) => {
      throw markAppLoadFailure(err)
    })
    console.log(result.written ? `Generated ${display(result.file)}` : `${display(result.file)} is up to date`)
    return 0
  },
})
