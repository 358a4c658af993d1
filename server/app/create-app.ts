/**
 * `createApp(config)`: compiles the routes once and returns the app's entry points. Every request,
 * whatever carried it, takes one path (docs/internals/request-path.md):
 *
 *   exchange (node's request, a web Request, an upgrade) → stream handlers' observers
 *   → the app's `onRequest` hooks → URL checks (server/exchange/route.ts) → routing (404 / 405 /
 *   preflight, server/router/route-request.ts)
 *   → the route's pipeline (server/pipeline/run.ts) → compression, if on → added headers and the
 *   request id header → the app's `onResponse` hooks → the exchange sends the response
 */
import { resolve } from 'node:path'
import type { AppState, CreateAppOptions, VelaApp } from '../contracts/app.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import { clusterRole } from '../cluster/role.ts'
import { workerTopicBroker } from '../cluster/topics-broker.ts'
import { compressing } from '../compress/compress.ts'
import { errorPage } from '../errors/error-page.ts'
import type { NamedObserver } from '../exchange/entry-points.ts'
import { entryPoints } from '../exchange/entry-points.ts'
import { proxyTrust } from '../exchange/forwarded.ts'
import type { Exchange } from '../exchange/exchange.ts'
import { healthEndpoints } from '../exchange/health.ts'
import { lifecycle } from '../exchange/lifecycle.ts'
import { withRequestHooks } from '../exchange/on-request.ts'
import { responseDefaults, responseHooks } from '../exchange/on-response.ts'
import { requestIds } from '../exchange/request-id.ts'
import type { Serve } from '../exchange/route.ts'
import { createRouting } from '../exchange/route.ts'
import { HandlerDeadlines } from '../pipeline/deadline.ts'
import type { PipelineContext } from '../pipeline/run.ts'
import { compileRoutes } from '../router/compile.ts'
import { metricsSetupWarning } from '../stream-handlers/metrics.ts'
import { streamHandlersOf } from '../stream-handlers/stream-handlers.ts'
import { composeWrapForms } from '../stream-handlers/wrap-forms.ts'
import { compileRouteChecks } from '../validate/route-checks.ts'
import { createViewRenderer } from '../views/renderer.ts'
import { createTopics } from '../websocket/topics.ts'
import { createUpgradeRouting } from '../websocket/upgrade.ts'
import { resolveConfig } from './config.ts'
import { setCurrentApp } from './current-app.ts'
import { coalesceLog, logKey } from './coalesce-log.ts'
import { logRequest, requestTag } from './request-log.ts'
import { checkHealthPaths } from './health-config.ts'

export type { AppState, CreateAppOptions, VelaApp } from '../contracts/app.ts'

/**
 * How long `start()` waits for the topics broker's subscription before the app reports ready
 * anyway: a broker away at start costs cross-instance delivery, never the instance's start.
 */
export const BROKER_START_MS = 5000

/**
 * Creates the app from its configuration, its routes and plugins compiled once.
 *
 * The config is resolved and checked (a bad value throws `VELA_ERR_CONFIG`); the app has entry
 * points (`fetch`, `handleNode`, `upgrade`) and a lifecycle (`start`, `drain`, `stop`). It serves nothing
 * by itself: give it to `listen`, or to `inject` in tests. The Vite plugin and a built server do
 * this for you.
 *
 * @example
 * ```ts
 * import { createApp, defineApp, json, listen } from 'vela'
 *
 * const app = createApp(
 *   defineApp({
 *     bootstrapApplication: 'hello',
 *     routes: { hello: { prefix: '', security: false, routes: [['GET /', () => json({ hello: 'world' })]] } },
 *   }),
 * )
 * await app.start()
 * const listener = await listen(app, { port: 3000 })
 * console.log(`listening on ${listener.url}`)
 * ```
 */
export function createApp(appConfig: AppConfig, opts: CreateAppOptions = {}): VelaApp {
  const config = resolveConfig(appConfig, opts.env)
  const root = resolve(opts.root ?? '.')
  setCurrentApp({ root, environment: config.environment })
  const metricsWarning = metricsSetupWarning(config)
  if (metricsWarning) console.warn(`[vela] ${metricsWarning}`)
  const handlers = [...(opts.streamHandlers ?? []), ...streamHandlersOf(config)]
  const table = compileRoutes({
    routes: appConfig.routes,
    controllers: appConfig.controllers,
    globalPlugins: config.plugins,
    environment: config.environment,
    env: opts.env ?? process.env,
  })
  // The default log coalesces repeated lines (coalesce-log.ts); a log given receives every line.
  const coalesced = opts.log
    ? undefined
    : coalesceLog((message, error, request) => {
        const line = `[vela] ${message}${requestTag(request)}`
        if (error === undefined) console.error(line)
        else console.error(`${line}:`, error)
      })
  const log = opts.log ?? coalesced!.log
  // A cluster worker with no broker relays through its primary: topics reach every worker.
  const topics =
    opts.topics ??
    createTopics({
      broker: config.server.websocket.pubsub,
      fallback: () => workerTopicBroker(),
      app: config.bootstrapApplication,
      log,
    })
  const publish = topics.publish
  const base = {
    app: config.bootstrapApplication,
    environment: config.environment,
    bodyLimit: config.server.bodyLimit,
    maxFields: config.server.maxFields,
    publish,
    proxies: proxyTrust(config.server.trustProxy),
    jsonLib: config.jsonLib,
    useStacktrace: config.useStacktrace,
    renderView:
      opts.renderView ?? createViewRenderer({ ...appConfig.views, cache: config.environment !== 'dev', root }),
    log,
  }
  const routeChecks = compileRouteChecks(table, {
    schemas: opts.schemas,
    root,
    environment: config.environment,
    jsonLib: config.jsonLib,
    log,
  })
  const ctx: PipelineContext = {
    ...base,
    deadlines: new HandlerDeadlines(base, config.server.handlerTimeout),
    routeChecks,
    observer: opts.observer,
  }
  checkHealthPaths(config.server.health, table)
  let state: AppState = 'starting'
  const health = healthEndpoints(config.server.health, () => state)
  const backend = config.dispatchBackend
  const routing = createRouting({ table, ctx, root, maxUrlLength: config.server.maxUrlLength, backend, health })
  const compress = config.server.options.compress
  // The `onRequest` hooks come first on both paths; an upgrade no ws route takes goes on to the
  // HTTP routing without them (they have run).
  const http: Serve = compress ? compressing(routing, compress === true ? {} : compress) : routing
  const serve = withRequestHooks(config.onRequest, ctx, http)
  const serveUpgrade = withRequestHooks(
    config.onRequest,
    ctx,
    createUpgradeRouting({ routes: table.routes, ctx, backend, http, limits: config.server.websocket }),
  )

  const streamFailed = (err: unknown, accept: string | null, of?: RequestFacts) => {
    const message = '500: a stream handler failed'
    if (of) logRequest(log, of, message, err, logKey(message, err))
    else log(message, err, logKey(message, err))
    return errorPage(ctx, accept, 500, undefined, err)
  }
  // Every handler observes: the runtime calls the observers itself on each exchange. Otherwise
  // the handlers' low-level forms wrap the same entry points (observers through derived forms).
  const observing = handlers.every((h) => h.observe)
  const observers: NamedObserver[] = []
  for (const h of observing ? handlers : []) {
    const observer = h.observe!(config)
    if (observer) observers.push({ name: h.name, observer })
  }
  const hooks = opts.onResponse ? [...config.onResponse, ...opts.onResponse] : config.onResponse
  const steps = lifecycle(
    requestIds(config.server.requestId, ctx.proxies),
    responseHooks(hooks, ctx.proxies, log),
    responseDefaults(hooks, ctx.proxies),
  )
  const failed = (err: unknown, x: Exchange) => streamFailed(err, x.header('accept') ?? null, x)
  const core = entryPoints({ serve, serveUpgrade, observers, failed, log, reuse: !observing, lifecycle: steps })
  const entries = observing ? core : composeWrapForms(handlers, config, core, streamFailed)

  return {
    config,
    routeTable: table,
    ...entries,
    get state() {
      return state
    },
    publish,
    topics,
    async start() {
      // Plugins' run-time checks (a session secret) first: a refused start has opened nothing.
      // Once per registration: one running in both phases, or inherited by several groups, too.
      const registrations = new Set(
        [...table.globalPre, ...table.globalPost, ...table.groups.flatMap((g) => [...g.pre, ...g.post])].map(
          (s) => s.registration,
        ),
      )
      for (const r of registrations) await r.plugin.start?.(r.options, r.state)
      const cluster = clusterRole()
      await appConfig.start?.(cluster ? { config, cluster } : { config })
      // Subscribed before ready, so a message published right after it reaches this instance. Not
      // in a cluster primary: it serves no WebSocket, its broker starts on first use.
      if (cluster?.role !== 'primary') await topics.start(BROKER_START_MS)
      if (state === 'starting') state = 'ready'
    },
    drain() {
      state = 'draining'
    },
    async stop() {
      try {
        await appConfig.stop?.()
      } finally {
        if (topics !== opts.topics) await topics.close()
        coalesced?.flush()
      }
    },
  }
}
