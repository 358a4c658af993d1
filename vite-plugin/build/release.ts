/**
 * `vela release [--profile <name>]`: `vite build` for the app in `root`, with its `vite.config.*`
 * (which must use `vela()`), or with `vela()` alone when it has none (app-loader.ts). The files the
 * build generated come from the plugin's API (`api.generated`, plugin-api.ts); Vite's info output
 * is not shown, its warnings and errors are.
 *
 * The config is resolved first (Vite's legacy builder, what `build()` does), so a config that
 * cannot be loaded or lacks `vela()` is a load failure (the CLI exits 2) and the build's own
 * failures are the command's (1).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { createBuilder } from 'vite'
import { appViteConfig, velaPluginOf } from '../app-loader.ts'
import vela from '../index.ts'
import { failedToLoad } from '../load-failure.ts'
import { checkProfile } from '../profile.ts'

export interface ReleaseOptions {
  /** The release profile: Vite's `mode` and the bundle's default environment (profile.ts). */
  readonly profile?: string
}

export interface Release {
  readonly server: string
  /** The files the build generated: the migration `src/schemas` needed, the OpenAPI files (`priv/assets/…`). */
  readonly generated: readonly string[]
}

export async function release(root: string, opts: ReleaseOptions = {}): Promise<Release> {
  const mode = opts.profile === undefined ? undefined : checkProfile(opts.profile)
  const viteConfig = appViteConfig(root, () => vela(), { mode })
  const builder = await createBuilder({ ...viteConfig, logLevel: 'warn' }, true).catch(failedToLoad)
  const plugin = velaPluginOf(builder.config)
  const [environment] = Object.values(builder.environments)
  await builder.build(environment!)
  const server = resolve(builder.config.root, 'dist/server/index.mjs')
  if (!existsSync(server))
    throw new Error(
      `${builder.config.root}: the build wrote no dist/server/index.mjs; does the Vite config change build.outDir?`,
    )
  return { server, generated: [...(plugin.api?.generated ?? [])] }
}
