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
 *
 * `vela({ instrumentation: true })` keeps `@opentelemetry/*` and the drivers OpenTelemetry's
 * auto-instrumentations patch (`pg`, `pg-pool`, `ioredis`, `knex`) out of the bundle: a bundled
 * module is never `require`d or `import`ed by name, so an instrumentation registered with
 * `node --import ./instrumentation.mjs` cannot patch it. The built server then imports those
 * packages from the app's `node_modules` (run it from the app folder, or ship `node_modules`).
 */
import type { InputOptions } from 'rolldown'
import type { UserConfig } from 'vite'
import { SERVER_ENTRY } from '../app-entry.ts'

const KNEX_OPTIONAL_DRIVERS = [
  /^mariadb(\/|$)/,
  /^mysql2?(\/|$)/,
  /^oracledb$/,
  /^tedious$/,
  /^sqlite3$/,
  /^better-sqlite3$/,
  /^pg-query-stream$/,
  /^pg-native$/,
]

/** What `instrumentation: true` leaves to `node_modules`: OpenTelemetry and the instrumented drivers. */
export const INSTRUMENTED_PACKAGES: readonly RegExp[] = [
  /^@opentelemetry\//,
  /^pg(\/|$)/,
  /^pg-pool(\/|$)/,
  /^ioredis(\/|$)/,
  /^knex(\/|$)/,
]

export function buildConfig(config: UserConfig, instrumentation = false): UserConfig {
  return {
    build: {
      // `ssr: <path>` would be resolved as a file under the root; a virtual entry goes in as input.
      ssr: config.build?.ssr ?? true,
      outDir: config.build?.outDir ?? 'dist/server',
      // The oldest Node line Vela supports (engines: ^22.15.0 || ^24 || >=26).
      target: 'node22.15',
      rolldownOptions: {
        ...(config.build?.ssr ? {} : { input: SERVER_ENTRY }),
        // knex requires the driver of each dialect only when that dialect is used; the others
        // are not installed and stay out of the bundle.
        external: instrumentation ? [...KNEX_OPTIONAL_DRIVERS, ...INSTRUMENTED_PACKAGES] : KNEX_OPTIONAL_DRIVERS,
        // One file: dynamic imports (liquidjs' loader) are inlined.
        output: { entryFileNames: 'index.mjs', format: 'es', codeSplitting: false },
        onLog: quietPglite,
      },
    },
    ssr: { noExternal: config.ssr?.noExternal ?? true, target: 'node' },
  }
}

/**
 * Leaves out the bundler's `[EVAL]` warnings about PGlite's own code (its Emscripten module calls
 * `eval`): every app with the embedded database printed four of them on each build, about code it
 * cannot change. Every other log, `[EVAL]` in the app's own code included, goes through.
 */
const quietPglite: NonNullable<InputOptions['onLog']> = (level, log, handler) => {
  if (log.code === 'EVAL' && `${log.id ?? ''}${log.message}`.includes('@electric-sql/pglite')) return
  handler(level, log)
}
