/**
 * The virtual modules the plugin serves, shared by dev and build:
 *
 * - `virtual:vela/app`: imports the app's `src/app.ts`, discovers `src/routes/*.ts` and
 *   `src/controllers/*.ts` with `import.meta.glob`, merges them into the config (discover.ts),
 *   wraps its start and stop hooks with the jobs of `src/jobs/*.ts` when it has any
 *   (jobs/app-hooks.ts; `src/repo.ts` is imported only when they start), and
 *   exports `config` and `create(opts?)` (the runtime's `createApp`, with the Vite root as the app
 *   root unless `opts.root` says otherwise) and the app's `priv/schemas/*.json` by name, which
 *   routes' `validate` and `responses` may name (bundled in, so a built server reads no schema
 *   file at run time). It imports `createApp` from `vela`, the same module
 *   the app's code imports, so replies, errors and requests are the runtime's own classes on both
 *   sides (`instanceof` holds).
 * - `virtual:vela/server`: the production entry (`dist/server/index.mjs`): sets the build's default
 *   environment (`virtual:vela/profile`, profile.ts), then hands server/cluster/serve.ts a way to
 *   create the app with the folder above the server file (`dist/`, which the build fills with the
 *   views and `priv/`: build-files.ts) as its root. serve.ts runs its start hook (a failure, such
 *   as a missing session secret, prints one line and exits 1), listens on the configured port
 *   (8080, or PORT), prints the address it is bound to and installs the graceful shutdown (timeouts
 *   from `server.shutdownTimeout`, `server.drainDelay`); with `VELA_WORKERS` it does so in a primary
 *   and N workers under node:cluster.
 * - `virtual:vela/migrations`: `migrations`, the app's `src/migrations/*` compiled in
 *   (bundled-migrations.ts), ready for `migrate(repo, migrations)`. Its id is a path in
 *   `src/migrations` (`MIGRATIONS_MODULE`, not a file on disk), so dev swaps re-read it.
 */
import { fileURLToPath } from 'node:url'
import { MIGRATIONS_GLOB } from './bundled-migrations.ts'
import { DISCOVERY_GLOBS, REPO_GLOB } from './discover.ts'
import { PROFILE_ENTRY } from './profile.ts'

export const APP_ENTRY = 'virtual:vela/app'
/** The JSON Schemas routes may name in `validate` and `responses`, bundled into the app module. */
export const SCHEMAS_GLOB = '/priv/schemas/*.json'
export const SERVER_ENTRY = 'virtual:vela/server'
export const MIGRATIONS_ENTRY = 'virtual:vela/migrations'
/** Where `virtual:vela/migrations` is placed, from the root (served by the plugin; not on disk). */
export const MIGRATIONS_MODULE = 'src/migrations/__vela_migrations__.js'

// Sibling modules by this file's own extension: `.ts` from source, `.js` once compiled.
const EXT = /\.[cm]?[jt]s$/.exec(import.meta.url)?.[0] ?? '.js'
const sibling = (path: string) => fileURLToPath(new URL(path.replace(/\.ts$/, EXT), import.meta.url))
const here = (path: string) => JSON.stringify(sibling(path))

/**
 * How a generated module names the modules it imports. Vite's (`VITE_DIALECT`) gives paths and
 * `import.meta.glob`, which Vite expands; the CLI's light loader (light/entries.ts) gives file
 * URLs and lists the files the globs match, for Node to import as they are.
 */
export interface EntryDialect {
  /** An import specifier for a file given by its absolute path. */
  file(path: string): string
  /** An import specifier for a module named from the app root (`/src/app.ts`). */
  fromRoot(path: string): string
  /**
   * Statements that declare `name` as `import.meta.glob(patterns, { eager, import })` would
   * (`eager` by default: the modules; `eager: false`, a function importing each).
   */
  glob(name: string, patterns: string | readonly string[], options?: GlobOptions): string
}

/** The `import.meta.glob` options the generated modules use. */
export interface GlobOptions {
  readonly eager?: boolean
  readonly import?: 'default'
}

/** Vite's dialect: paths, and `import.meta.glob` for Vite to expand. */
export const VITE_DIALECT: EntryDialect = {
  file: (path) => JSON.stringify(path),
  fromRoot: (path) => JSON.stringify(path),
  glob: (name, patterns, { eager = true, import: importName } = {}) =>
    `const ${name} = import.meta.glob(${JSON.stringify(patterns)}${eager ? `, { eager: true${importName ? `, import: '${importName}'` : ''} }` : ''})`,
}

/** `root`: the app root `create()` gives `createApp` (the Vite root; none in a build, whose server entry passes its own). */
export function appEntrySource(appFile = '/src/app.ts', root?: string, dialect: EntryDialect = VITE_DIALECT): string {
  return [
    `import * as appModule from ${dialect.fromRoot(appFile)}`,
    `import { createApp } from 'vela'`,
    `import { withDiscovered } from ${dialect.file(sibling('./discover.ts'))}`,
    dialect.glob('routes', DISCOVERY_GLOBS.routes),
    dialect.glob('controllers', DISCOVERY_GLOBS.controllers),
    `import { namedSchemas } from ${dialect.file(sibling('../server/validate/named-schemas.ts'))}`,
    dialect.glob('schemaFiles', SCHEMAS_GLOB, { import: 'default' }),
    `import { withJobs } from ${dialect.file(sibling('../jobs/app-hooks.ts'))}`,
    dialect.glob('jobs', DISCOVERY_GLOBS.jobs),
    dialect.glob('repoModule', REPO_GLOB, { eager: false }),
    `export const config = withJobs(withDiscovered(appModule.default, { routes, controllers }), jobs, repoModule)`,
    `export const create = (opts) => createApp(config, { root: ${root === undefined ? 'undefined' : JSON.stringify(root)}, schemas: namedSchemas(schemaFiles), ...opts })`,
  ].join('\n')
}

export function serverEntrySource(): string {
  return [
    // First: ES modules run in import order, so the environment is set before any app module runs.
    `import ${JSON.stringify(PROFILE_ENTRY)}`,
    `import { fileURLToPath } from 'node:url'`,
    `import { config, create } from ${JSON.stringify(APP_ENTRY)}`,
    `import { serveBuilt } from ${here('../server/cluster/serve.ts')}`,
    // The app root is dist/, mirroring the app folder: dist/src/views, dist/priv (build-files.ts).
    `await serveBuilt(() => create({ root: fileURLToPath(new URL('..', import.meta.url)) }), config)`,
  ].join('\n')
}

export function migrationsEntrySource(dialect: EntryDialect = VITE_DIALECT): string {
  return [
    `import { migrationsFromModules } from ${dialect.file(sibling('./bundled-migrations.ts'))}`,
    dialect.glob('modules', MIGRATIONS_GLOB),
    `export const migrations = migrationsFromModules(modules)`,
  ].join('\n')
}
