/**
 * `createApp(config)`: compiles the routes once and returns the app's `fetch`. The lifecycle of a
 * request, in order (README "Request lifecycle"):
 *
 *   stream handlers → URL checks (400 malformed, 414 too long) → routing (404 / 405 + allow)
 *   → the route's pipeline (server/pipeline/run.ts) → response
 */
import { resolve } from 'node:path'
import { H3Event } from 'h3'
import { toNodeHandler } from 'srvx/node'
import type { ViewReply } from '../replies.ts'
import type { RouteInfo, VelaRequest } from '../request.ts'
import { VelaRequest as Request_ } from '../request.ts'
import { httpError } from '../errors/http-error.ts'
import { errorPage } from '../errors/error-page.ts'
import { statusPage } from '../pipeline/failure.ts'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'
import type { CompiledGroup, CompiledRoute, RouteTable } from '../router/compile.ts'
import { compileRoutes } from '../router/compile.ts'
import { NO_BINDINGS, buildMatcher, decodeParams } from '../router/dispatch.ts'
import { createNodeHandler } from './node-handler.ts'
import type { Handler, StaticRouteHandler } from '../router/types.ts'
import type { AppConfig, ResolvedConfig } from './config.ts'
import { resolveConfig } from './config.ts'
import type { FetchHandler, NodeHandler } from '../stream-handlers/stream-handlers.ts'
import { composeNodeStreamHandlers, composeStreamHandlers, composeUpgradeHandlers } from '../stream-handlers/stream-handlers.ts'
import type { UpgradeHandler } from '../websocket/upgrade.ts'
import { createUpgradeHandler } from '../websocket/upgrade.ts'
import { createViewRenderer } from '../views/renderer.ts'
import { staticHandlerAt } from '../static/static-dir.ts'
import { metricsSetupWarning } from '../stream-handlers/metrics.ts'
import { withCompression } from '../compress/compress.ts'

export interface VelaApp {
  readonly config: ResolvedConfig
  /** The compiled route table: for listings, the audit and OpenAPI. */
  readonly routeTable: RouteTable
  /** Answers one request: the whole lifecycle, no socket needed. */
  readonly fetch: FetchHandler
  /**
   * Decides a WebSocket upgrade through the route table and the ws route's plugins and security;
   * the listener performs it (server/listener/websockets.ts). Only stream handlers with `wrapUpgrade`
   * see upgrades.
   */
  readonly upgrade: UpgradeHandler
  /**
   * Answers one request from node's HTTP server. The common case (a route and method that match,
   * a path without percent-escapes, no compression, stream handlers that all have `wrapNode`) runs
   * the route straight from node's request, making the h3 event only if something uses it;
   * everything else goes through `fetch` via srvx's node adapter, with the same results.
   */
  readonly handleNode: NodeHandler
  /** Runs the plugins' `start` checks (run-time needs such as the session secret), then the app's `start` hook. */
  start(): Promise<void>
  /** Runs the app's `stop` hook (close pools, flush telemetry). */
  stop(): Promise<void>
}

export interface CreateAppOptions {
  env?: NodeJS.ProcessEnv
  /**
   * The app root, where its files are: relative `views.dir` and `staticDir(...)` paths resolve
   * against it (default: the working directory). The Vite plugin passes the Vite root; a built
   * server the folder above `dist/server/index.mjs`.
   */
  root?: string
  /** Renders `view(...)` replies; set by the views module. */
  renderView?: (reply: ViewReply, req: VelaRequest) => Promise<string>
  log?: (message: string, error: unknown) => void
}

export interface Target {
  readonly route: CompiledRoute
  readonly run: RouteRunner
  preflight?: RouteRunner
}

const kMalformedURL = Symbol.for('h3.internal.event.malformed')

export function createApp(appConfig: AppConfig, opts: CreateAppOptions = {}): VelaApp {
  const config = resolveConfig(appConfig, opts.env)
  const root = resolve(opts.root ?? '.')
  const metricsWarning = metricsSetupWarning(config)
  if (metricsWarning) console.warn(`[vela] ${metricsWarning}`)
  const table = compileRoutes({
    routes: appConfig.routes,
    controllers: appConfig.controllers,
    globalPlugins: config.plugins,
    environment: config.environment,
    env: opts.env ?? process.env,
  })
  const ctx: PipelineContext = {
    app: config.bootstrapApplication,
    environment: config.environment,
    bodyLimit: config.server.bodyLimit,
    jsonLib: config.jsonLib,
    useStacktrace: config.useStacktrace,
    renderView: opts.renderView ?? createViewRenderer({ ...appConfig.views, cache: config.environment !== 'dev', root }),
    log: opts.log ?? ((message, error) => console.error(`[vela] ${message}:`, error)),
  }
  const handlerOf = (route: CompiledRoute): Handler => {
    if (route.kind === 'static') return staticHandlerAt(route.handler as StaticRouteHandler, root)
    if (route.kind === 'ws') return () => { throw httpError(426, 'Upgrade Required: this route speaks WebSocket', { upgrade: 'websocket' }) }
    return route.handler as Handler
  }
  const match = buildMatcher<Target>(table.routes, (route) => ({ route, run: createRouteRunner(route, handlerOf(route), ctx) }), config.dispatchBackend)
  const maxUrl = config.server.maxUrlLength
  const compress = config.server.options.compress

  // Groups that define status routes, longest prefix first: an unrouted request gets the page of
  // the most specific group whose prefix it falls under.
  const statusGroups = table.groups.filter((g) => g.statusRoutes.size > 0).sort((a, b) => b.prefix.length - a.prefix.length)
  const groupFor = (path: string, status: number): CompiledGroup | undefined =>
    statusGroups.find((g) => g.statusRoutes.has(status) && (g.prefix === '' || path === g.prefix || path.startsWith(g.prefix.endsWith('/') ? g.prefix : `${g.prefix}/`)))

  const unrouted = (event: H3Event, status: number, message?: string, headers?: Record<string, string>): Promise<Response> => {
    const path = event.url.pathname
    const group = groupFor(path, status)
    const custom = group?.statusRoutes.get(status)
    const info: RouteInfo = { path, prefix: group?.prefix ?? '', controller: custom?.identity.controller ?? 'vela', action: custom?.identity.action ?? String(status) }
    const req = new Request_(event, info, NO_BINDINGS, undefined, ctx.bodyLimit)
    return statusPage(ctx, status, req, group, message, undefined, headers)
  }

  const route: FetchHandler = (request) => {
    const event = new H3Event(request)
    const url = event.url
    if ((event as unknown as Record<symbol, boolean>)[kMalformedURL]) {
      return Promise.resolve(errorPage(ctx, request.headers.get('accept'), 400, 'Bad Request: invalid percent-encoding in the URL path'))
    }
    const path = url.pathname
    if (path.length + url.search.length > maxUrl) {
      return Promise.resolve(errorPage(ctx, request.headers.get('accept'), 414, `URI Too Long: the request target exceeds ${maxUrl} bytes`))
    }
    const found = match(path)
    if (!found) return unrouted(event, 404)
    const method = request.method
    let target = found.data.byMethod[method]
    let run = target?.run
    if (!target) {
      const allow = found.data.allow
      if (method !== 'OPTIONS') return unrouted(event, 405, undefined, { allow })
      // A CORS preflight goes through the group's plugins even when the route lists no OPTIONS.
      target = found.data.first
      run = target.preflight ??= createRouteRunner(
        { ...target.route, group: { ...target.route.group, security: false } },
        () => { throw httpError(405, undefined, { allow }) },
        ctx,
      )
    }
    let decoded
    try {
      decoded = decodeParams(found)
    } catch {
      return Promise.resolve(errorPage(ctx, request.headers.get('accept'), 400, 'Bad Request: invalid percent-encoding in the URL path'))
    }
    return run!(event, decoded.bindings, decoded.pathInfo)
  }

  // The route pipelines catch their own errors; this guards the routing step itself.
  const dispatch: FetchHandler = (request) => {
    try {
      return route(request)
    } catch (err) {
      ctx.log(`500 on ${request.method} ${request.url} before routing`, err)
      return Promise.resolve(errorPage(ctx, request.headers.get('accept'), 500, undefined, err))
    }
  }

  const streamFailed = (err: unknown, accept: string | null) => {
    ctx.log('500: a stream handler failed', err)
    return errorPage(ctx, accept, 500, undefined, err)
  }
  const fetch = composeStreamHandlers(config, compress ? withCompression(dispatch, compress === true ? {} : compress) : dispatch, streamFailed)
  // Node's listener takes the direct path unless compression or a fetch-only stream handler
  // needs the whole request as a web Request; inside node-shaped stream handlers, the direct
  // path's fallback is the dispatcher without them (they have already run).
  const direct = compress
    ? undefined
    : composeNodeStreamHandlers(config, createNodeHandler({ match, maxUrlLength: maxUrl, fallback: toNodeHandler(dispatch) as NodeHandler, log: ctx.log }), streamFailed)
  const handleNode = direct ?? (toNodeHandler(fetch) as NodeHandler)

  return {
    config,
    routeTable: table,
    upgrade: composeUpgradeHandlers(config, createUpgradeHandler({ routes: table.routes, ctx, backend: config.dispatchBackend, fallback: dispatch })),
    fetch,
    handleNode,
    async start() {
      // Plugins' run-time checks (a session secret) first: a refused start has opened nothing.
      const steps = new Set([...table.globalPre, ...table.globalPost, ...table.groups.flatMap((g) => [...g.pre, ...g.post])])
      for (const step of steps) await step.plugin.start?.(step.options, step.state)
      await appConfig.start?.({ config })
    },
    async stop() {
      await appConfig.stop?.()
    },
  }
}
