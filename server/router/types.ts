/**
 * The shapes users write in `src/routes/*.ts`: a route is `[path, handler, options]` (the spec's
 * `{Path, Handler, Options}`), a group bundles routes under a prefix with one security callback and
 * an optional plugin list.
 */
import type { Reply } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { PluginEntry } from '../pipeline/plugin.ts'
import type { WebSocketHooks } from '../websocket/define.ts'

export type MaybePromise<T> = T | Promise<T>

/** Lowercase HTTP methods a route may list. */
export type RouteMethod = 'get' | 'head' | 'post' | 'put' | 'delete' | 'patch' | 'options'

/** What a handler may return: a reply helper's value or a web `Response` (escape hatch). */
export type HandlerResult = Reply | Response

export type Handler<A = unknown> = (req: VelaRequest<A>) => MaybePromise<HandlerResult>

/** A handler object for WebSocket routes (`protocol: 'ws'`): `defineWebSocket` (server/websocket/define.ts). */
// The route list holds handlers of any auth data type; each handler is typed where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface WebSocketRouteHandler extends WebSocketHooks<any> {
  readonly kind: 'vela.websocket'
}

/** A route whose path ends in `[...]` may be served by a static-files handler (`staticDir`). */
export interface StaticRouteHandler {
  readonly kind: 'vela.static'
  readonly handle: Handler
}

export interface RouteOptions {
  /** Lowercase method names; absent means every standard method. */
  methods?: readonly RouteMethod[]
  /** `'ws'` marks a WebSocket route. */
  protocol?: 'http' | 'ws'
  /** Names `priv/schemas/<schema>.json` for OpenAPI. */
  schema?: string
}

export type Route =
  | readonly [path: string, handler: Handler | StaticRouteHandler | WebSocketRouteHandler]
  | readonly [path: string, handler: Handler | StaticRouteHandler | WebSocketRouteHandler, options: RouteOptions]

/** `[404, handler]`: replaces the built-in page for that status within the group. */
export type StatusRoute = readonly [status: number, handler: Handler]

/** What a security callback may return: `true` or an object allows (the object becomes `req.authData`), `false` is a 401, a reply or `Response` is sent as is (server/pipeline/run.ts). */
export type SecurityResult = boolean | Reply | Response | Record<string, unknown>
export type SecurityCallback = (req: VelaRequest) => MaybePromise<SecurityResult>

export interface RouteGroup {
  /** Prepended to every route path; may be the empty string. */
  prefix: string
  security: false | SecurityCallback
  /** Replaces the global plugin list for this group; absent = inherit the global list. */
  plugins?: readonly PluginEntry[]
  routes: readonly (Route | StatusRoute)[]
}

/** What a route module default-exports: a group, a list of groups, or a function of the environment. */
export type RouteSource = RouteGroup | readonly RouteGroup[] | ((env: string) => RouteGroup | readonly RouteGroup[])

/** Identity of the code answering a route: feeds operationId, audit lines, span names. */
export interface HandlerIdentity {
  controller: string
  action: string
}

/** Helper for typing a route module. */
export function defineRoutes<const T extends RouteSource>(source: T): T {
  return source
}
