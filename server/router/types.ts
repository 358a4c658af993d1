/**
 * The shapes users write in `src/routes/*.ts` (their types live in server/contracts/routes.ts)
 * and `defineRoutes`, which types a route module.
 */
import type { RouteSource } from '../contracts/routes.ts'

export type { MaybePromise } from '../contracts/primitives.ts'
export type {
  Handler,
  HandlerIdentity,
  HandlerResult,
  Route,
  RouteGroup,
  RouteMethod,
  RouteOptions,
  RouteSource,
  SecurityCallback,
  SecurityResult,
  StaticRouteHandler,
  StatusRoute,
  WebSocketRouteHandler,
} from '../contracts/routes.ts'

/** Helper for typing a route module. */
export function defineRoutes<const T extends RouteSource>(source: T): T {
  return source
}
