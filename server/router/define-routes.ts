/**
 * `defineRoutes`, which types a route module (`src/routes/*.ts`). The shapes users write there
 * live in server/contracts/routes.ts.
 */
import type { RouteSource } from '../contracts/routes.ts'

/** Helper for typing a route module. */
export function defineRoutes<const T extends RouteSource>(source: T): T {
  return source
}
