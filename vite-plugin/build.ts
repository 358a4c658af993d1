/**
 * `vite build` with `vela()`: an SSR build of the production entry (`virtual:vela/server`) into
 * `dist/server/index.mjs`, one ESM file with every dependency bundled (`ssr.noExternal: true`) so
 * it runs with plain `node` and no `node_modules`. Packages that cannot be bundled (native addons)
 * go in the app's `ssr.external`. The user's own `build.outDir` / `build.ssr` / `ssr.noExternal`
 * win over these defaults. What the server reads at run time is put under `dist/`, the built
 * server's app root (build-files.ts): PGlite's wasm and data files beside the server file, the
 * views in `dist/src/views/`, `priv/` in `dist/priv/`. Other files the app reads relative to its
 * sources (e.g. migrations loaded from `src/migrations` with `loadMigrations`) are not: import
 * `virtual:vela/migrations` instead (bundled-migrations.ts).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Logger, UserConfig } from 'vite'
import { SERVER_ENTRY } from './app-entry.ts'
import { GENERATED } from './openapi-build.ts'
import { checkProfile } from './profile.ts'

const KNEX_OPTIONAL_DRIVERS = [/^mariadb(\/|$)/, /^mysql2?(\/|$)/, /^oracledb$/, /^tedious$/, /^sqlite3$/, /^better-sqlite3$/, /^pg-query-stream$/, /^pg-native$/]

/** The config files Vite looks for in an app's root. */
export const CONFIG_FILES = ['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs']

export function buildConfig(config: UserConfig): UserConfig {
  return {
    build: {
      // `ssr: <path>` would be resolved as a file under the root; a virtual entry goes in as input.
      ssr: config.build?.ssr ?? true,
      outDir: config.build?.outDir ?? 'dist/server',
      target: 'node20',
      rolldownOptions: {
        ...(config.build?.ssr ? {} : { input: SERVER_ENTRY }),
        // knex requires the driver of each dialect only when that dialect is used; the others
        // are not installed and stay out of the bundle.
        external: KNEX_OPTIONAL_DRIVERS,
        // One file: dynamic imports (liquidjs' loader) are inlined.
        output: { entryFileNames: 'index.mjs', format: 'es', codeSplitting: false },
      },
    },
    ssr: { noExternal: config.ssr?.noExternal ?? true, target: 'node' },
  }
}

export interface ReleaseOptions {
  /** The release profile: Vite's `mode` and the bundle's default environment (profile.ts). */
  readonly profile?: string
}

export interface Release {
  readonly server: string
  /** The OpenAPI files the build wrote (`priv/assets/…`, when the app has `priv/schemas/`). */
  readonly generated: readonly string[]
}

/**
 * `vela release [--profile <name>]`: `vite build` for the app in `root`, with its `vite.config.*`
 * (which must use `vela()`), or with `vela()` alone when it has none. The plugin writes the
 * OpenAPI files (`writeBundle`); their `Generated` log lines are collected from Vite's logger, the
 * rest of its info output is dropped.
 */
export async function release(root: string, opts: ReleaseOptions = {}): Promise<Release> {
  const { build, createLogger } = await import('vite')
  const { default: vela } = await import('./index.ts')
  const dir = resolve(root)
  const mode = opts.profile === undefined ? undefined : checkProfile(opts.profile)
  const hasConfig = CONFIG_FILES.some((f) => existsSync(resolve(dir, f)))
  const generated: string[] = []
  const customLogger: Logger = {
    ...createLogger('warn'),
    info: (msg) => void (msg.startsWith(GENERATED) && generated.push(resolve(dir, msg.slice(GENERATED.length)))),
  }
  await build({ root: dir, mode, configFile: hasConfig ? undefined : false, plugins: hasConfig ? [] : [vela()], logLevel: 'warn', customLogger })
  const server = resolve(dir, 'dist/server/index.mjs')
  if (!existsSync(server)) throw new Error(`${dir}: the build wrote no dist/server/index.mjs; does the Vite config use vela() (and keep build.outDir)?`)
  return { server, generated }
}
