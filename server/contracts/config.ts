/**
 * Application configuration as written (`AppConfig`, `defineApp`) and as resolved
 * (`ResolvedConfig`, with defaults and environment overrides: server/app/config.ts), and the
 * stream handlers listed in it. Types only.
 */
import type { JobsConfig } from '../../jobs/options.ts'
import type { PluginEntry } from '../pipeline/registration.ts'
import type { FetchHandler, NodeHandler, UpgradeHandler } from './handlers.ts'
import type { RequestObserver } from './observer.ts'
import type { JsonLib, ModuleMap } from './primitives.ts'
import type { RequestHook } from './request-hook.ts'
import type { ResponseHook } from './response.ts'
import type { RouteSource } from './routes.ts'
import type { WebSocketOptions } from './websocket.ts'

export type { AllowedOrigins, WebSocketLimits, WebSocketOptions } from './websocket.ts'
import type { TopicBroker } from './topics.ts'

/** `server.websocket`: the limits and allowed origins of every WebSocket route, and the relay of topics between instances. */
export interface WebSocketConfig extends WebSocketOptions {
  /**
   * Relays WebSocket topic messages between instances: `redisPubSub({ url })`, or any crossws
   * sync adapter; `app.start()` waits (at most 5 s) for its subscription. Unset: topics reach the
   * subscribers of this process, or of every worker of this machine under `VELA_WORKERS` (relayed
   * through the cluster primary).
   */
  pubsub?: TopicBroker
}

/** One finished request as `server.options.metricsCallback` receives it: timings, status, body size and user data. */
export interface MetricsEvent {
  userData: Record<string, unknown>
  /** When the request started and ended, in `process.hrtime.bigint()` nanoseconds. */
  reqStart: bigint
  reqEnd: bigint
  respStatus: number
  respBodyLength: number
}

/** `server.options.compress`: gzip/brotli of textual bodies, and the smallest body compressed. */
export interface CompressOptions {
  /** Smallest body compressed, in bytes (default 1024). */
  threshold?: number
}

/** `views`: where the Liquid templates of `view(...)` replies are. */
export interface ViewsConfig {
  /** Directory of the `.liquid` files (default `src/views`, relative to the app root). */
  dir?: string
}

/**
 * The built-in health endpoints (`server.health`): a liveness and a readiness path.
 *
 * They are answered before routing (no plugins, no security): `live` is 200 while the process serves; `ready` is 200 once the app has started and 503 while it starts
 * or from the moment shutdown begins. A path, or `false` for none.
 */
export interface HealthConfig {
  /** Default `/livez`. */
  live?: string | false
  /** Default `/readyz`. */
  ready?: string | false
}

/**
 * `server.requestId`: how requests get their id (`req.id`), which every response carries in a
 * header and every log line of the request names (`request_id=…`).
 */
export interface RequestIdConfig {
  /** The header that carries the id, both ways (default `x-request-id`). */
  header?: string
  /**
   * Take the id a proxy listed in `server.trustProxy` sent in that header, when it is a sane one
   * (1 to 128 characters of letters, digits and `-_.:+=/@`), instead of generating one (default
   * true). A request from anyone else always gets a generated id.
   */
  trustIncoming?: boolean
}

/** `server`: the HTTP server's port, host, limits, timeouts, proxies, WebSockets and health endpoints. */
export interface ServerConfig {
  /** The port to listen on (default 8080; `PORT` overrides). */
  port?: number
  /** The address to listen on (default: every interface). */
  host?: string
  /** Wrappers around every request, outermost first; `'default'` is the dispatcher itself. */
  streamHandlers?: readonly (StreamHandler | 'default')[]
  /** Largest request body read, in bytes (default 1 MiB); larger is a 413. */
  bodyLimit?: number
  /** Longest request target accepted, in bytes (default 8 KiB); longer is a 414. */
  maxUrlLength?: number
  /**
   * Most fields a URL-encoded form body or a query string may have (default 1,000): a form with
   * more is a 413, a query string with more a 414, each naming the limit (server/form-fields.ts).
   */
  maxFields?: number
  /** Idle keep-alive connections close after this many ms (default 5000). */
  keepAliveTimeout?: number
  /** A client must send all request headers within this many ms (default 20000, or `requestTimeout` when that is lower; 0 = none). */
  headersTimeout?: number
  /** A client must send the whole request within this many ms (default 60000, or `headersTimeout` when that is higher; 0 = none). */
  requestTimeout?: number
  /**
   * A route must answer within this many ms, or the request is answered 503 and the late answer
   * dropped (default: `requestTimeout`; 0 = no deadline). A route's `handlerTimeout` option overrides it.
   */
  handlerTimeout?: number
  /**
   * A client must take what a response has written within this many ms (default 30000; 0 = no
   * limit): when a write backs up (the connection's buffer is full) and the client does not drain
   * it in time, the connection is closed. A slow reader holds a connection and its buffered bytes
   * at most this long; a client reading at any sensible speed never meets it.
   */
  sendTimeout?: number
  /**
   * Reverse proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are honoured: addresses and CIDR
   * subnets (`['127.0.0.1', '10.0.0.0/8']`; default none; `VELA_TRUST_PROXY`, comma-separated,
   * overrides). `req.peer`, `req.scheme`, the rate limit's key and telemetry's `client.address`
   * then give the client behind them (server/exchange/forwarded.ts), and `req.id` the
   * `x-request-id` they sent (`requestId`).
   */
  trustProxy?: readonly string[]
  /**
   * Request ids (default `{ header: 'x-request-id', trustIncoming: true }`): each request's id is
   * sent back in that header on every response that does not set it itself, and named by every
   * log line it writes. `false`: no header either way (`req.id` and log lines still have a
   * generated id).
   */
  requestId?: RequestIdConfig | false
  /**
   * Every WebSocket route's limits (1 MiB messages, 4 MiB queued per client, 100 messages a
   * second, 30 s idle) and allowed origins (the app's own), a route's `defineWebSocket(hooks,
   * options)` winning; and the relay of topics between instances.
   */
  websocket?: WebSocketConfig
  /** Health endpoints (default `{ live: '/livez', ready: '/readyz' }`); `false` for none. */
  health?: HealthConfig | false
  /**
   * On shutdown, how long readiness reports `draining` while the server still accepts connections,
   * so a load balancer polling it takes the instance out first (default 0 ms).
   */
  drainDelay?: number
  /** On shutdown, how long requests already sent may take to be answered (default 10000 ms). */
  shutdownTimeout?: number
  /** Response compression and a callback for each finished request's metrics. */
  options?: {
    /** gzip/brotli for textual bodies at or above `threshold` bytes (default 1024) when the client accepts it. */
    compress?: boolean | CompressOptions
    metricsCallback?: (event: MetricsEvent) => void
  }
}

/** An application's configuration, as `defineApp` takes it: its name, server, plugins, hooks, routes and lifecycle. */
export interface AppConfig {
  /** The application's name, shown in logs, listings and telemetry. Required. */
  bootstrapApplication: string
  /** `dev` unless set; `VELA_ENV` overrides. */
  environment?: string
  server?: ServerConfig
  /** The global plugin list (groups without `plugins` inherit it). */
  plugins?: readonly PluginEntry[]
  /**
   * Hooks that see every request before routing, in order (routed or not, 404s, 405s and WebSocket
   * upgrades included): each may add response headers or answer at once (`RequestHook`). Unlike
   * plugins, groups do not replace them. Default none.
   */
  onRequest?: readonly RequestHook[]
  /**
   * Hooks that see every reply of the app just before it is written, whoever produced it (routes,
   * plugins, security callbacks, 404 / 405 and other error pages, health endpoints, static files),
   * in order: `[securityHeaders()]`. Unlike plugins, groups do not replace them. Default none.
   */
  onResponse?: readonly ResponseHook[]
  /** The JSON library every JSON body is encoded and decoded with (default `JSON`). */
  jsonLib?: JsonLib
  /** Include stack traces in error responses (default false). */
  useStacktrace?: boolean
  /** Router implementation holding the compiled routes: `compiled` (generated matcher, default) or `tree` (radix tree walk). */
  dispatchBackend?: 'compiled' | 'tree'
  /**
   * Route modules: `{ 'src/routes/api.ts': module }` or `{ api: group }`. Optional: under the Vite
   * plugin, `src/routes/*.ts` are discovered and merged in.
   */
  routes?: ModuleMap<RouteSource | { default: RouteSource }>
  /** Liquid templates for `view(...)` replies (default `{ dir: 'src/views' }`). */
  views?: ViewsConfig
  /** Controller modules: their exported functions get `{ controller, action }` identities. */
  controllers?: ModuleMap<Record<string, unknown>>
  /**
   * Called before the server accepts requests (open pools, run migrations, warm caches). With
   * several workers (`VELA_WORKERS`) it runs in the primary first, then in every worker: `cluster`
   * says which (undefined in a single process).
   */
  start?: (app: { config: ResolvedConfig; cluster?: ClusterRole }) => void | Promise<void>
  /** Called on shutdown (close pools, flush telemetry). */
  stop?: () => void | Promise<void>
  /**
   * Background jobs (`vela/jobs`, the jobs of `src/jobs/`): their repository, how many run at once
   * per queue (`concurrency`, default 5) and whether the app's processes run them (`inApp`, default
   * true; `false` leaves them to `vela jobs work`). They start after `start` and stop before `stop`.
   */
  jobs?: JobsConfig
}

/** Where the start hook runs when the built server runs several workers (`VELA_WORKERS`). */
export interface ClusterRole {
  /** `primary`: runs the start hook first (migrations), forks the workers, serves no requests. */
  readonly role: 'primary' | 'worker'
  /** The worker's cluster id (1, 2, …; a replacement gets a new one); 0 in the primary. */
  readonly id: number
  /** How many workers the primary keeps running. */
  readonly workers: number
}

/** The configuration as the app runs with it: `AppConfig` with every default applied and the environment's overrides (`VELA_ENV`, `PORT`, `VELA_TRUST_PROXY`). */
export interface ResolvedConfig {
  bootstrapApplication: string
  environment: string
  server: Required<Omit<ServerConfig, 'options' | 'host' | 'websocket' | 'health' | 'requestId'>> & {
    host: string | undefined
    options: NonNullable<ServerConfig['options']>
    websocket: Required<WebSocketOptions> & { pubsub: TopicBroker | undefined }
    /** The health endpoints' paths; null for one that is off. */
    health: { live: string | null; ready: string | null }
    /** The request id's header (lowercase) and whether a trusted proxy's is taken; false for none. */
    requestId: Required<RequestIdConfig> | false
  }
  plugins: readonly PluginEntry[]
  onRequest: readonly RequestHook[]
  onResponse: readonly ResponseHook[]
  jsonLib: JsonLib
  useStacktrace: boolean
  dispatchBackend: 'compiled' | 'tree'
  /** Keys (dotted for `server.*`) that kept their built-in default. */
  defaults: ReadonlySet<string>
}

/**
 * An entry of `server.streamHandlers`, made by `defineStreamHandler`: it sees every request, 404s and WebSocket upgrades included, outside routing.
 */
export interface StreamHandler {
  readonly kind: 'vela.stream-handler'
  readonly name: string
  /**
   * The observer contract (observer.ts): called once at start-up; returns the observer the
   * runtime calls for every request on every path, or undefined to add nothing (e.g. metrics
   * without a callback).
   */
  readonly observe?: (config: ResolvedConfig) => RequestObserver | undefined
  /**
   * Low-level form, around the app's `fetch`: called once at start-up with the next handler in
   * the chain. A handler made with `observe` has one derived from it.
   */
  readonly wrap: (next: FetchHandler, config: ResolvedConfig) => FetchHandler
  /**
   * The same around node's listener. `next` never throws; the handler sees the response on `res`.
   * Without it (in a handler that has no `observe`), requests from node's listener are turned into
   * web Requests for `wrap`, which costs speed.
   */
  readonly wrapNode?: (next: NodeHandler, config: ResolvedConfig) => NodeHandler
  /** Around the decision on a WebSocket upgrade; handlers without it (and without `observe`) do not see upgrades. */
  readonly wrapUpgrade?: (next: UpgradeHandler, config: ResolvedConfig) => UpgradeHandler
}
