/**
 * Writes `.vela/routes.d.ts` (route-types.ts) for a loaded app: at the dev server's start and after
 * each swap (dev-app.ts), in `vite build` (`writeBundle`), at vitest's start (index.ts) and by
 * `vela types`. The file is replaced whole and only when its text changes, so an editor watching
 * it re-reads it only when a route's types did.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { AppConfig } from '../server/app/config.ts'
import type { RouteTable } from '../server/contracts/routes.ts'
import type { ImportModule } from './app-module.ts'
import { appEntry } from './app-module.ts'
import { ROUTE_TYPES_FILE, routeTypesSource } from './route-types.ts'
import { writeIfChanged } from './write-atomically.ts'

function readSchema(root: string, name: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(resolve(root, 'priv/schemas', `${name}.json`), 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** The file's absolute path, and whether this call wrote it (false: it already held this text). */
export interface RouteTypesWritten {
  readonly file: string
  readonly written: boolean
}

/**
 * Writes the route types of an app whose config and route table are at hand.
 *
 * @example
 * await writeRouteTypes(root, entry.config, app.routeTable)
 */
export async function writeRouteTypes(
  root: string,
  config: Pick<AppConfig, 'routes' | 'controllers'>,
  table: RouteTable,
): Promise<RouteTypesWritten> {
  const file = resolve(root, ROUTE_TYPES_FILE)
  const text = routeTypesSource({ root, config, table, readSchema: (name) => readSchema(root, name) })
  return { file, written: await writeIfChanged(file, text) }
}

/** Loads the app through `load` (not started) and writes its route types. */
export async function writeRouteTypesWith(root: string, load: ImportModule): Promise<RouteTypesWritten> {
  const entry = await appEntry(load)
  const app = entry.create({ env: process.env })
  return writeRouteTypes(root, entry.config, app.routeTable)
}
