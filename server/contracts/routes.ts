/**
 * Routes as users write them in `src/routes/*.ts` (a route is `['GET /path', handler, options]`, a group
 * bundles routes under a prefix with one security callback and an optional plugin list), and the
 * route table they compile to (`app.routeTable`: listings, the audit, OpenAPI). Types only; besides
 * other contracts it names the building blocks routes are made of (replies, the request object,
 * plugins, WebSocket hooks), whose modules import only contracts.
 */
import type { PluginEntry, PluginStep } from '../pipeline/registration.ts'
import type { Reply } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { WebSocketHooks } from '../websocket/define.ts'
import type { MaybePromise } from './primitives.ts'
import type { RouteInfo } from './request.ts'
import type { StandardSchemaV1 } from './standard-schema.ts'

/** Lowercase HTTP methods a route may list in `options.methods` (the path string names them in uppercase: `'GET /x'`). */
export type RouteMethod = 'get' | 'head' | 'post' | 'put' | 'delete' | 'patch' | 'options'

/** What a handler may return: a reply helper's value or a web `Response` (escape hatch). */
export type HandlerResult = Reply | Response

/** A route's handler: takes the request (its `authData` typed `A`) and returns a reply or a `Response`, or a promise of one. */
export type Handler<A = unknown> = (req: VelaRequest<A>) => MaybePromise<HandlerResult>

/** The handler of a WebSocket route (`protocol: 'ws'`), made by `defineWebSocket`. */
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

/** A route's options, the third element of its tuple: methods, protocol, deadline, validation and response schemas. */
export interface RouteOptions {
  /**
   * Lowercase method names: the older way to say a route's methods, and the way to give one route
   * several (`['get', 'post']`). Leave it out when the path names the method (`'GET /notes'`).
   */
  methods?: readonly RouteMethod[]
  /** `'ws'` marks a WebSocket route. */
  protocol?: 'http' | 'ws'
  /** Names `priv/schemas/<schema>.json` for OpenAPI. */
  schema?: string
  /** This route's deadline in ms (overrides `server.handlerTimeout`; 0 = none): past it, a 503. */
  handlerTimeout?: number
  /**
   * What the route accepts, checked before the handler runs (a failure is a 422 with
   * `{ errors: { "<field path>": ["<message>"] } }`), described in the OpenAPI document, and used
   * to type the handler's request and the generated client.
   */
  validate?: RouteValidation
  /**
   * The reply body's schema per status: OpenAPI responses, the typed client, and response checks in
   * dev and test. `null` declares a reply without a body (a redirect, a 204).
   */
  responses?: Readonly<Record<number, SchemaRef | null>>
}

/**
 * A schema as routes name it: the name of a `priv/schemas/<name>.json` file (JSON Schema
 * draft-07), or any Standard Schema object (zod, valibot, arktype, …).
 */
export type SchemaRef = string | StandardSchemaV1

/** A route's `validate` option: a schema per part of the request, and optionally for its reply. */
export interface RouteValidation {
  /** The decoded body (JSON or form; another content type is a 415); not coerced. */
  body?: SchemaRef
  /** The query string; values are coerced to the schema's types (integers, booleans, arrays from repeated keys). */
  query?: SchemaRef
  /** The path parameters (`:id`); coerced like the query. */
  params?: SchemaRef
  /** The request headers (lowercase names), coerced like the query; checked only (`req.headers` is unchanged). */
  headers?: SchemaRef
  /** The reply body of 2xx replies, checked in dev and test like `responses`. */
  response?: SchemaRef
}

/**
 * An OpenAPI security scheme object, as the generated document declares it for a group's
 * operations: `{ type: 'http', scheme: 'bearer' }`, `{ type: 'http', scheme: 'basic' }`,
 * `{ type: 'apiKey', in: 'header' | 'query' | 'cookie', name }`, …
 */
export type SecuritySchemeObject =
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; description?: string }
  | { type: 'oauth2'; flows: Record<string, unknown>; description?: string }
  | { type: 'openIdConnect'; openIdConnectUrl: string; description?: string }

/** A security scheme with the name it has under `components.securitySchemes`. */
export interface NamedSecurityScheme {
  readonly name: string
  readonly scheme: SecuritySchemeObject
}

/** A group's security with the scheme it implements: `check` decides, `scheme` documents. */
export interface SecurityWithScheme {
  /** The OpenAPI security scheme the callback implements. */
  scheme: SecuritySchemeObject
  /** Optional name for the scheme under `components.securitySchemes` (default derived from the scheme). */
  name?: string
  check: SecurityCallback
}

/**
 * A route: `['GET /notes/:id', handler]` or `['POST /notes', handler, options]`.
 *
 * The path string starts with the method, uppercase: GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS,
 * or ALL for every one of them (HEAD follows GET unless declared). A handler route without a method
 * (in the string or in `options.methods`) is refused at start; a `staticDir(...)` or WebSocket route
 * answers GET without one. `:name` segments bind path parameters, a trailing `[...]` matches the rest.
 */
export type Route =
  | readonly [path: string, handler: Handler | StaticRouteHandler | WebSocketRouteHandler]
  | readonly [path: string, handler: Handler | StaticRouteHandler | WebSocketRouteHandler, options: RouteOptions]

/** `[404, handler]`: replaces the built-in page for that status within the group. */
export type StatusRoute = readonly [status: number, handler: Handler]

/**
 * What a security callback may return: `true`, `false` (a 401), a reply, or auth data.
 *
 * `true` lets the request through, `false` answers 401, a reply or `Response` is sent instead of
 * the handler's, and an object lets the request through as `req.authData`.
 */
export type SecurityResult = boolean | Reply | Response | Record<string, unknown>
/** A group's security callback: decides, for every request of the group, before its handler (see `SecurityResult`). */
export type SecurityCallback = (req: VelaRequest) => MaybePromise<SecurityResult>

/** A route group: routes under one prefix sharing a security callback and a plugin list. */
export interface RouteGroup {
  /** Prepended to every route path; may be the empty string. */
  prefix: string
  /** `false` (open), a callback, or `{ scheme, check }` to declare the OpenAPI security scheme it implements. */
  security: false | SecurityCallback | SecurityWithScheme
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

/** A group as compiled: its plugins made ready to run, its status routes by status. */
export interface CompiledGroup {
  readonly prefix: string
  readonly security: false | SecurityCallback
  /** The OpenAPI security scheme the group declared with `security: { scheme, check }`. */
  readonly securityScheme?: NamedSecurityScheme
  /** `undefined` when the group inherits the global list. */
  readonly ownPlugins: readonly PluginEntry[] | undefined
  readonly pre: readonly PluginStep[]
  readonly post: readonly PluginStep[]
  readonly statusRoutes: ReadonlyMap<number, { handler: Handler; identity: HandlerIdentity }>
  /** Where the group was declared, for messages. */
  readonly source: string
}

/** A route as compiled into `app.routeTable`: its full path, methods, kind, handler, options and group. */
export interface CompiledRoute {
  /** Full path (prefix + route path, without the method), e.g. `/api/products/:id` or `/docs/[...]`. */
  readonly path: string
  /** Uppercase methods, or `'all'` for an `ALL` route. */
  readonly methods: readonly string[] | 'all'
  readonly kind: 'http' | 'ws' | 'static'
  readonly handler: Handler | StaticRouteHandler | WebSocketRouteHandler
  readonly options: RouteOptions
  readonly group: CompiledGroup
  readonly info: RouteInfo
  readonly source: string
}

/** `app.routeTable`: every route and group, compiled once at start-up. */
export interface RouteTable {
  readonly routes: readonly CompiledRoute[]
  readonly groups: readonly CompiledGroup[]
  readonly globalPre: readonly PluginStep[]
  readonly globalPost: readonly PluginStep[]
}
