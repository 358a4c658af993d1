/**
 * What `createApp` returns (`VelaApp`) and what it takes besides the config; what the listener
 * (server/listener/), `vela/testing` and the Vite plugin rely on. Types only.
 */
import type { ViewReply } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { PipelineObserver } from '../pipeline/observer.ts'
import type { ResolvedConfig, StreamHandler } from './config.ts'
import type { FetchHandler, NodeHandler, UpgradeHandler } from './handlers.ts'
import type { RequestFacts } from './request.ts'
import type { ResponseHook } from './response.ts'
import type { RouteTable } from './routes.ts'
import type { TopicMessage, Topics } from './topics.ts'

/**
 * Where the app is in its life, as its readiness endpoint reports it.
 *
 * `starting` until `start()` has run, `ready` once it has, `draining` from the moment shutdown begins (`drain()`, which the
 * listener's `close()` calls first). It never goes back.
 */
export type AppState = 'starting' | 'ready' | 'draining'

/** An app made by `createApp`: its resolved config and route table, its request entry points and its lifecycle. */
export interface VelaApp {
  readonly config: ResolvedConfig
  /** `starting` → `ready` (after `start()`) → `draining` (after `drain()`). */
  readonly state: AppState
  /** The compiled route table: for listings, the audit and OpenAPI. */
  readonly routeTable: RouteTable
  /** Answers one request: the whole lifecycle, no socket needed. */
  readonly fetch: FetchHandler
  /**
   * Decides a WebSocket upgrade through the route table and the ws route's plugins and security;
   * the listener performs it (server/listener/websockets.ts).
   */
  readonly upgrade: UpgradeHandler
  /**
   * Answers one request from node's HTTP server, straight from node's request: the h3 event and
   * its web `Request` are made only if something uses them (server/exchange/node.ts).
   */
  readonly handleNode: NodeHandler
  /**
   * Sends `message` to every WebSocket subscribed to `topic` (`peer.subscribe(topic)`): on this
   * instance's listeners and, with `server.websocket.pubsub`, on every other instance. Never
   * throws; at most once (server/websocket/topics.ts).
   */
  publish(topic: string, message: TopicMessage): void
  /** The app's WebSocket topics: its listeners relay through them; `ready()` says when the broker is. */
  readonly topics: Topics
  /** Runs the plugins' `start` checks (run-time needs such as the session secret), then the app's `start` hook. */
  start(): Promise<void>
  /**
   * Marks the app `draining`: from now on its readiness endpoint answers 503, so a load balancer
   * takes the instance out. Requests are still served. The listener's `close()` calls it first.
   */
  drain(): void
  /** Runs the app's `stop` hook (close pools, flush telemetry), then closes the topics' broker. */
  stop(): Promise<void>
}

/** What `createApp` takes besides the config: the environment, the app root, schemas, a log, extra stream handlers and response hooks, an observer. */
export interface CreateAppOptions {
  /** The environment the config's overrides are read from (`VELA_ENV`, `PORT`, …; default `process.env`). */
  env?: NodeJS.ProcessEnv
  /**
   * The app root, where its files are: relative `views.dir` and `staticDir(...)` paths resolve
   * against it (default: the working directory). The Vite plugin passes the Vite root; a built
   * server the folder above `dist/server/index.mjs`.
   */
  root?: string
  /**
   * The JSON Schemas routes name in `validate` and `responses`, by name (`product` for
   * `priv/schemas/product.json`). The Vite plugin passes the app's `priv/schemas/*.json`, bundled
   * into the build; without it, the files are read from `priv/schemas/` under `root` when a route
   * names one.
   */
  schemas?: Readonly<Record<string, object>>
  /** Renders `view(...)` replies; set by the views module. */
  renderView?: (reply: ViewReply, req: VelaRequest) => Promise<string>
  /**
   * Where the app logs failures (default: stderr, `[vela] … request_id=…`, with repeated lines
   * coalesced). Given here, it receives every line, with the line's kind as `key` (status, route
   * pattern, error kind) and, for a line a request writes, the request's facts (`request.id`,
   * `request.method`, `request.path`): wrap it in `coalesceLog(log).log` to coalesce it as the
   * default is.
   */
  log?: (message: string, error: unknown, key?: string, request?: RequestFacts) => void
  /**
   * Topics to share instead of the app's own (the dev server passes one for every app it swaps
   * in, so its listener keeps reaching the current app's publishes). The app does not close them.
   */
  topics?: Topics
  /**
   * Stream handlers run outside the configured ones (`server.streamHandlers`), outermost first:
   * the dev server's request recorder for its dashboard comes this way, leaving the app's config
   * as written.
   */
  streamHandlers?: readonly StreamHandler[]
  /**
   * Response hooks run after the configured ones (`onResponse`), in order, so they see each reply
   * as it is sent: the dev server's dashboard reads the response headers it shows this way.
   */
  onResponse?: readonly ResponseHook[]
  /**
   * Told what each plugin step and security callback of a request it traces did (the dev server's
   * dashboard). Without one, routes call them directly and pay nothing for it.
   */
  observer?: PipelineObserver
}
