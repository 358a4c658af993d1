/**
 * The virtual modules the plugin serves, shared by dev and build:
 *
 * - `virtual:vela/app`: imports the app's `src/app.ts`, discovers `src/routes/*.ts` and
 *   `src/controllers/*.ts` with `import.meta.glob`, merges them into the config (discover.ts) and
 *   exports `config` and `create(opts?)` (the runtime's `createApp`). It imports `createApp` from
 *   `vela`, the same module the app's code imports, so replies, errors and requests are the
 *   runtime's own classes on both sides (`instanceof` holds).
 * - `virtual:vela/server`: the production entry (`dist/server/index.mjs`): sets the release
 *   profile's default environment (`virtual:vela/profile`, profile.ts), creates the app, runs its
 *   start hook, listens on the configured port (8080, or PORT) and installs the graceful shutdown.
 * - `virtual:vela/migrations`: `migrations`, the app's `src/migrations/*` compiled in
 *   (bundled-migrations.ts), ready for `migrate(repo, migrations)`. Its id is a path in
 *   `src/migrations` (`MIGRATIONS_MODULE`, not a file on disk), so dev swaps re-read it.
 */
import { fileURLToPath } from 'node:url'
import { MIGRATIONS_GLOB } from './bundled-migrations.ts'
import { DISCOVERY_GLOBS } from './discover.ts'
import { PROFILE_ENTRY } from './profile.ts'

export const APP_ENTRY = 'virtual:vela/app'
export const SERVER_ENTRY = 'virtual:vela/server'
export const MIGRATIONS_ENTRY = 'virtual:vela/migrations'
/** Where `virtual:vela/migrations` is placed, from the root (served by the plugin; not on disk). */
export const MIGRATIONS_MODULE = 'src/migrations/__vela_migrations__.js'

// Modules of this folder, by file name without extension: `.ts` in the repo, `.js` once compiled.
const EXT = import.meta.url.slice(import.meta.url.lastIndexOf('.'))
const here = (name: string) => JSON.stringify(fileURLToPath(new URL(`${name}${EXT}`, import.meta.url)))

export function appEntrySource(appFile = '/src/app.ts'): string {
  return [
    `import * as appModule from ${JSON.stringify(appFile)}`,
    `import { createApp } from 'vela'`,
    `import { withDiscovered } from ${here('./discover')}`,
    `const routes = import.meta.glob(${JSON.stringify(DISCOVERY_GLOBS.routes)}, { eager: true })`,
    `const controllers = import.meta.glob(${JSON.stringify(DISCOVERY_GLOBS.controllers)}, { eager: true })`,
    `export const config = withDiscovered(appModule.default, { routes, controllers })`,
    `export const create = (opts) => createApp(config, opts)`,
  ].join('\n')
}

export function serverEntrySource(): string {
  return [
    // First: ES modules run in import order, so the environment is set before any app module runs.
    `import ${JSON.stringify(PROFILE_ENTRY)}`,
    `import { create } from ${JSON.stringify(APP_ENTRY)}`,
    `import { listen } from 'vela'`,
    `import { installShutdown } from ${here('../server/shutdown')}`,
    `const app = create()`,
    `await app.start()`,
    `const listener = await listen(app)`,
    `installShutdown(listener, app)`,
    'console.log(`vela: ${app.config.bootstrapApplication} (${app.config.environment}) listening on ${listener.url}`)',
  ].join('\n')
}

export function migrationsEntrySource(): string {
  return [
    `import { migrationsFromModules } from ${here('./bundled-migrations')}`,
    `export const migrations = migrationsFromModules(import.meta.glob(${JSON.stringify(MIGRATIONS_GLOB)}, { eager: true }))`,
  ].join('\n')
}
