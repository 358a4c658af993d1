/**
 * `vela`: the runtime. Everything an application imports to define routes, handlers, plugins and
 * the app itself, and the types tools read (`app.routeTable`). Curated: what is here is public
 * and checked by test/exports.test.ts; the runtime's own pieces (config resolution, the view
 * renderer, compression, the WebSocket attachment, response-end hooks, compiled routes and plugin
 * steps) are internal, and the Vite plugin and the tests import them by relative path.
 */

// App: its configuration, creating and serving it, shutdown.
export { defineApp } from './app/config.ts'
export type {
  AllowedOrigins,
  AppConfig,
  ClusterRole,
  JsonLib,
  MetricsEvent,
  ModuleMap,
  RequestIdConfig,
  ResolvedConfig,
  ServerConfig,
  WebSocketConfig,
  WebSocketLimits,
  WebSocketOptions,
} from './app/config.ts'
export type { HealthConfig } from './contracts/config.ts'
export { createApp } from './app/create-app.ts'
export type { CreateAppOptions, VelaApp } from './app/create-app.ts'
export type { AppState } from './contracts/app.ts'
export type {
  PipelineObserver,
  PipelineTrace,
  PluginStepReport,
  SecurityReport,
  StepOutcome,
} from './pipeline/observer.ts'
export { listen } from './listener/listen.ts'
export type { CloseOptions, Listener, ListenOptions } from './listener/listen.ts'
export { installShutdown } from './listener/shutdown.ts'
export type { ShutdownHandle, ShutdownOptions } from './listener/shutdown.ts'
export type { CompressOptions } from './compress/compress.ts'
export type { MaybePromise } from './contracts/primitives.ts'

// Routes: route groups, routes with their validation, static files; the table tools read.
export { defineRoutes } from './router/define-routes.ts'
export { defineRoute, defineValidation } from './validate/define-route.ts'
export type { ValidatedHandler, ValidatedRequest } from './validate/define-route.ts'
export type { VelaSchemas } from './validate/vela-schemas.ts'
export type { StandardSchemaV1 } from './contracts/standard-schema.ts'
export type {
  Handler,
  HandlerIdentity,
  HandlerResult,
  Route,
  RouteGroup,
  RouteMethod,
  RouteOptions,
  RouteSource,
  RouteValidation,
  SchemaRef,
  StaticRouteHandler,
  StatusRoute,
  WebSocketRouteHandler,
} from './contracts/routes.ts'
export type { RouteTable } from './router/compile.ts'
export { staticDir } from './static/static-dir.ts'
export type { StaticDirOptions } from './static/static-dir.ts'

// Replies: what handlers return.
export { json, status, redirect, view, sendfile, isReply } from './replies.ts'
export type {
  Reply,
  JsonReply,
  StatusReply,
  RedirectReply,
  RedirectOptions,
  RedirectStatus,
  ViewReply,
  FileReply,
  ViewOptions,
  ReplyOptions,
  StatusOptions,
  Headers as ReplyHeaders,
} from './replies.ts'
export type { RenderView, ViewsConfig } from './views/renderer.ts'

// Requests: what handlers, plugins and hooks read.
export { VelaRequest } from './request.ts'
export type { CookieOptions, QueryValue, RouteInfo } from './request.ts'
export type { RequestFacts } from './contracts/request.ts'
export type { IncomingRequest, RequestHook, RequestHookResult } from './contracts/request-hook.ts'
export type { OutgoingResponse, ResponseHook } from './contracts/response.ts'

// Plugins: a group's pipeline, the built-in plugins and writing one's own.
export { definePlugin, ok, breakPhase, stop, fail } from './pipeline/plugin.ts'
export type {
  Phase,
  Plugin,
  PluginContext,
  PluginDefinition,
  PluginEnv,
  PluginHandler,
  PluginInfo,
  PluginInitContext,
  PluginResult,
  PluginUse,
} from './pipeline/plugin.ts'
export type { PluginEntry } from './pipeline/registration.ts'
export { requestPlugin } from './plugins/request.ts'
export type { RequestPluginOptions } from './plugins/request.ts'
export { corsPlugin } from './plugins/cors.ts'
export type { CorsPluginOptions } from './plugins/cors.ts'
export {
  rateLimitPlugin,
  byAddress,
  byField,
  byAddressAndField,
  MemoryRateLimitStore,
  RedisRateLimitStore,
  MemoryStore,
  RedisStore,
} from './plugins/rate-limit/index.ts'
export type {
  RateLimitOptions,
  RateLimitKey,
  RateLimitStore,
  RateLimitHit,
  MemoryRateLimitStoreOptions,
  RedisRateLimitStoreOptions,
  MemoryStoreOptions,
  RedisStoreOptions,
} from './plugins/rate-limit/index.ts'
export { sessionPlugin, sessionPlugins } from './plugins/session/plugin.ts'
export type { SessionData, SessionInfo, SessionOptions } from './plugins/session/plugin.ts'
export { renewSession } from './plugins/session/renew.ts'
export { MemorySessionStore } from './plugins/session/store.ts'
export type { MemorySessionStoreOptions, SessionStore } from './plugins/session/store.ts'
export { RedisSessionStore } from './plugins/session/redis-store.ts'
export type { RedisSessionStoreOptions } from './plugins/session/redis-store.ts'

// Security: security callbacks, CSRF, response security headers, passwords.
export type {
  NamedSecurityScheme,
  SecurityCallback,
  SecurityResult,
  SecuritySchemeObject,
  SecurityWithScheme,
} from './contracts/routes.ts'
export { csrfPlugin, CSRF_FORM_FIELD, CSRF_HEADER } from './plugins/csrf.ts'
export type { CsrfPluginOptions } from './plugins/csrf.ts'
export { securityHeaders } from './plugins/security-headers/index.ts'
export type {
  ContentSecurityPolicyOptions,
  CspDirectiveValue,
  CspDirectives,
  ReferrerPolicyValue,
  SecurityHeadersOptions,
  StrictTransportSecurityOptions,
} from './plugins/security-headers/index.ts'
export { hashPassword, verifyPassword, passwordHashing } from './passwords/scrypt.ts'
export type { PasswordHashingOptions } from './passwords/scrypt.ts'

// Errors: errors that answer a request, and Vela's own.
export { httpError, HttpError, isHttpError } from './errors/http-error.ts'
export type { HttpErrorOptions } from './errors/http-error.ts'
export { VelaError, isVelaError } from './errors/vela-error.ts'
export type { VelaErrorCode } from './errors/vela-error.ts'

// WebSockets: handlers and topics.
export { defineWebSocket } from './websocket/define.ts'
export type { WebSocketContext, WebSocketHandler, WebSocketHooks, WebSocketPeer } from './websocket/define.ts'
export type { WebSocketServer } from './listener/websockets.ts'
export { redisPubSub } from './websocket/redis-pubsub.ts'
export type { RedisPubSubOptions } from './websocket/redis-pubsub.ts'
export type { BrokerContext, Publish, TopicBroker, TopicMessage, Topics } from './websocket/topics.ts'

// Observing: stream handlers around every request, metrics, logs.
export { defineStreamHandler } from './stream-handlers/stream-handlers.ts'
export type { FetchHandler, NodeHandler, StreamHandler } from './stream-handlers/stream-handlers.ts'
export type { RequestObserver, RequestOutcome, RequestWatch } from './contracts/observer.ts'
export { matchedRoute } from './stream-handlers/matched-route.ts'
export { metricsStreamHandler, setMetricsUserData } from './stream-handlers/metrics.ts'
export { coalesceLog } from './app/coalesce-log.ts'
export type { CoalesceLogOptions, CoalescingLog, KeyedLog, LogSink } from './app/coalesce-log.ts'
