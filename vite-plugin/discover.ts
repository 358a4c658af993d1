/**
 * File-based discovery of an app's route and controller modules:
 *
 *   src/routes/*.ts        default export: a group, a list of groups, or (env) => groups
 *   src/controllers/*.ts   exported functions; the file name is the controller, the export the action
 *
 * Modules are keyed by their path from the app root (`src/controllers/products_controller.ts`), the
 * keys `import.meta.glob` gives and the ones an app writes when it lists modules itself; the runtime
 * takes the file name as the controller (`products_controller.show`) and the route file as the
 * controller of inline handlers (`routes/api`).
 *
 * **Choice: explicit and discovered modules merge.** What `src/app.ts` lists in `routes` /
 * `controllers` is kept as written and comes first (so it wins the identity of a handler exported
 * twice); a discovered module is added unless the app already lists it, under the same key or
 * under any other key (same module object or same default export), so an app written before
 * discovery, which lists its modules explicitly, compiles to the same table as before and never
 * gets its routes twice. Files whose names start with `_` or `.`, declaration files and tests
 * (`*.test.ts`, `*.spec.ts`) are not discovered: helpers shared by route files can live there.
 *
 * The modules come from `import.meta.glob` (app-entry.ts) everywhere: dev, build and the CLI,
 * which loads the app through Vite too (app-loader.ts).
 */
import type { AppConfig, ModuleMap } from '../server/app/config.ts'
import { VelaError } from '../server/errors/vela-error.ts'

/** The folders discovered, relative to the app root, and the globs Vite is given for them. */
export const ROUTES_DIR = 'src/routes'
export const CONTROLLERS_DIR = 'src/controllers'
/** Background jobs (`vela/jobs`): each file's `defineJob` exports, named after the file. */
export const JOBS_DIR = 'src/jobs'
export const DISCOVERY_GLOBS = {
  routes: [`/${ROUTES_DIR}/*.{ts,js,mts,mjs}`, '!**/_*', '!**/*.d.ts', '!**/*.{test,spec}.*'],
  controllers: [`/${CONTROLLERS_DIR}/*.{ts,js,mts,mjs}`, '!**/_*', '!**/*.d.ts', '!**/*.{test,spec}.*'],
  jobs: [`/${JOBS_DIR}/*.{ts,js,mts,mjs}`, '!**/_*', '!**/*.d.ts', '!**/*.{test,spec}.*'],
} as const
/** The repository jobs use unless the config names one (the module `vela migrate` reads too). */
export const REPO_GLOB = '/src/repo.{ts,js,mts,mjs}'

export interface Discovered {
  routes: ModuleMap<unknown>
  controllers: ModuleMap<Record<string, unknown>>
}

/** `/src/routes/api.ts` (a glob key) → `src/routes/api.ts`; other keys unchanged. */
export const normalizeKey = (key: string) => key.replace(/^\.?\//, '')

function normalizeKeys<T>(modules: ModuleMap<T>): Record<string, T> {
  return Object.fromEntries(Object.entries(modules).map(([k, v]) => [normalizeKey(k), v]))
}

const defaultOf = (mod: unknown): unknown =>
  typeof mod === 'object' && mod !== null && 'default' in mod ? (mod as { default: unknown }).default : undefined

/** Adds the discovered modules the explicit map does not already hold (by key, module or default export). */
function mergeModules<T>(explicit: ModuleMap<T> | undefined, discovered: ModuleMap<T>): Record<string, T> {
  const merged: Record<string, T> = { ...explicit }
  const known = new Set<unknown>()
  for (const value of Object.values(merged)) {
    known.add(value)
    const d = defaultOf(value)
    if (d !== undefined) known.add(d)
  }
  for (const [key, mod] of Object.entries(normalizeKeys(discovered))) {
    if (key in merged || known.has(mod)) continue
    const d = defaultOf(mod)
    if (d !== undefined && known.has(d)) continue
    merged[key] = mod
  }
  return merged
}

/** The app config with the discovered modules merged into `routes` and `controllers`. */
export function withDiscovered<C extends AppConfig>(config: C, discovered: Discovered): C {
  if (!config || typeof config !== 'object')
    throw new VelaError('VELA_ERR_CONFIG', 'src/app.ts must default-export the app: export default defineApp({ … })')
  for (const [key, mod] of Object.entries(discovered.routes)) {
    if (defaultOf(mod) === undefined) {
      throw new VelaError(
        'VELA_ERR_ROUTE',
        `${normalizeKey(key)} must default-export its routes: a group, a list of groups, or (env) => groups`,
      )
    }
  }
  return {
    ...config,
    routes: mergeModules(config.routes, discovered.routes as NonNullable<AppConfig['routes']>),
    controllers: mergeModules(config.controllers, discovered.controllers),
  }
}
