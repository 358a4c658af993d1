/**
 * The decision on a WebSocket upgrade request, taken through the same route table and the same
 * pipeline as HTTP: the `ws` route's group pre-request plugins run, then its security callback.
 * - first, the `Origin` check (`allowedOrigins`, origins.ts): an upgrade from another site's page
 *   is answered 403 and logged before any plugin or the security callback runs. Plugins are the
 *   first code that trusts the request's cookies (the session plugin decodes and may refresh the
 *   session, a plugin may answer from it), so the check comes before all of them, and a
 *   cross-site flood costs one header comparison per upgrade;
 * - allowed → the pipeline ends in `status(101)` (Switching Protocols), and the exchange gives
 *   `{ accept: true }` with the context the hooks get (authData, bindings, request) and headers
 *   for the 101 (cookies a plugin set, e.g. a new session);
 * - a plugin's `stop`, a security rejection (401), a reply from security, an error → the
 *   response to send instead of upgrading;
 * - no `ws` route at that path (or not a WebSocket upgrade) → what the app answers over HTTP
 *   (404 for an unknown path; routing is the HTTP one), then the connection is closed.
 * Post-request plugins run after the decision, before the 101, as for any reply.
 */
import type { UpgradeDecision, UpgradeHandler } from '../contracts/handlers.ts'
import type { WebSocketLimits, WebSocketOptions } from '../contracts/websocket.ts'
import type { CompiledRoute } from '../contracts/routes.ts'
import { logRequest } from '../app/request-log.ts'
import { errorPage } from '../errors/error-page.ts'
import type { Log } from '../exchange/exchange.ts'
import { exchangeOf } from '../exchange/exchange.ts'
import { preparedHeaders } from '../exchange/internals.ts'
import type { Lifecycle } from '../exchange/lifecycle.ts'
import { whenResponseEnds } from '../exchange/response-end.ts'
import type { Serve } from '../exchange/route.ts'
import { hasTwoHosts } from '../exchange/route.ts'
import { RequestExchange } from '../exchange/web.ts'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'
import { status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { EncodedReply, Outcome } from '../respond.ts'
import { asResponse } from '../respond.ts'
import { NO_BINDINGS, buildMatcher, decodeParams } from '../router/dispatch.ts'
import type { WebSocketHandler } from './define.ts'
import type { OriginGate } from './origins.ts'
import { originGate } from './origins.ts'

export type { UpgradeDecision, UpgradeHandler } from '../contracts/handlers.ts'

/** `app.upgrade` when no stream handler observes requests (`reuse` and `lifecycle` as for `nodeEntry`). */
export function upgradeEntry(
  serve: Serve<UpgradeExchange>,
  log: Log,
  reuse: boolean,
  lifecycle: Lifecycle,
): UpgradeHandler {
  return function upgrade(request) {
    const x = reuse ? UpgradeExchange.of(request) : new UpgradeExchange(request)
    x.lifecycle = lifecycle
    return x.send(serve(x), log)
  }
}

/** A WebSocket upgrade request (a web Request the listener made from node's): its outcome is a decision. */
export class UpgradeExchange extends RequestExchange<Promise<UpgradeDecision>> {
  /** The ws route that took it, with its bindings. */
  ws:
    | {
        handler: WebSocketHandler
        bindings: Readonly<Record<string, string>>
        limits: Readonly<Required<WebSocketLimits>>
      }
    | undefined = undefined
  /** The request as the route's plugins and security left it, once they let the upgrade through. */
  accepted: VelaRequest | undefined = undefined
  static of(request: Request): UpgradeExchange {
    return (exchangeOf(request) as UpgradeExchange | undefined) ?? new UpgradeExchange(request)
  }

  get kind(): 'upgrade' {
    return 'upgrade'
  }

  protected deliver(outcome: Outcome | Promise<Outcome>, log: Log): Promise<UpgradeDecision> {
    return Promise.resolve(outcome).then((sent) => {
      const req = this.accepted
      const ws = this.ws
      const accepted = sent.status === 101 && !(sent instanceof Response) && req !== undefined && ws !== undefined
      const prepared = accepted && req.eventIfMade ? preparedHeaders(req.eventIfMade) : undefined
      // Headers set through h3 utilities go in before the id and the onResponse hooks, as on any
      // other reply, so the id fills only what they left; cookies, many values under one name,
      // are appended to the 101's headers.
      const o = this.finished(accepted && prepared ? withPrepared(sent, prepared) : sent)
      const done = this.sentCallback
      if (accepted && !(o instanceof Response)) {
        const headers = new Headers(o.headers)
        if (prepared) for (const cookie of prepared.getSetCookie()) headers.append('set-cookie', cookie)
        done?.(101, 0)
        const { handler, bindings, limits } = ws
        return { accept: true, handler, context: { authData: req.authData, bindings, req }, limits, headers, log }
      }
      const response = asResponse(o)
      return { accept: false, response: done ? whenResponseEnds(this.request, response, done) : response }
    })
  }
}

/** The 101 with the headers set through h3 utilities over its own, cookies left out. */
function withPrepared(reply: EncodedReply, prepared: Headers): EncodedReply {
  const headers: Record<string, string> = { ...reply.headers }
  for (const [name, value] of prepared) if (name !== 'set-cookie') headers[name] = value
  return { status: reply.status, headers, body: reply.body }
}

interface Target {
  readonly handler: WebSocketHandler
  readonly limits: Readonly<Required<WebSocketLimits>>
  readonly run: RouteRunner
  readonly route: CompiledRoute
  readonly origins: OriginGate
}

// The pipeline's "handler" for a ws route: plugins and security let the upgrade through.
const SWITCHING_PROTOCOLS = status(101)
const acceptUpgrade = (req: VelaRequest) => {
  ;(req.facts as UpgradeExchange).accepted = req
  return SWITCHING_PROTOCOLS
}

/** Routes an upgrade: to its ws route's pipeline, or, for anything else, to the app's HTTP routing (`http`). */
export function createUpgradeRouting(opts: {
  routes: readonly CompiledRoute[]
  ctx: PipelineContext
  backend: 'compiled' | 'tree'
  http: Serve
  /** `server.websocket`: the limits and allowed origins of routes that do not set their own. */
  limits: Readonly<Required<WebSocketOptions>>
}): Serve<UpgradeExchange> {
  const { ctx } = opts
  const wsRoutes = opts.routes.filter((r) => r.kind === 'ws')
  const target = (route: CompiledRoute): Target => {
    const handler = route.handler as WebSocketHandler
    const own = handler.limits ?? {}
    const limits = {
      maxMessageBytes: own.maxMessageBytes ?? opts.limits.maxMessageBytes,
      maxBufferedBytes: own.maxBufferedBytes ?? opts.limits.maxBufferedBytes,
      maxMessagesPerSecond: own.maxMessagesPerSecond ?? opts.limits.maxMessagesPerSecond,
      idleTimeout: own.idleTimeout ?? opts.limits.idleTimeout,
      closeTimeout: own.closeTimeout ?? opts.limits.closeTimeout,
    }
    const origins = originGate(own.allowedOrigins ?? opts.limits.allowedOrigins)
    return { handler, limits, route, origins, run: createRouteRunner(route, acceptUpgrade, ctx) }
  }
  const match = buildMatcher<Target>(wsRoutes, target, opts.backend)
  return function routeUpgrade(x) {
    const isWebSocket = x.method === 'GET' && x.header('upgrade')?.toLowerCase() === 'websocket'
    // A malformed path or two Host headers are answered by the HTTP routing (400).
    const found = isWebSocket && !x.malformed && !hasTwoHosts(x) ? match(x.path) : undefined
    if (!found) return opts.http(x)
    let bindings: Readonly<Record<string, string>> = NO_BINDINGS
    try {
      bindings = decodeParams(found).bindings
    } catch {
      return opts.http(x)
    }
    const target = found.data.first
    const refused = refusedOrigin(x, target, ctx)
    if (refused) return refused
    x.ws = { handler: target.handler, bindings, limits: target.limits }
    return target.run(x, bindings, undefined)
  }
}

/** The 403 for an upgrade from a page of another origin (logged), or undefined when its origin is allowed. */
function refusedOrigin(x: UpgradeExchange, target: Target, ctx: PipelineContext): Response | undefined {
  let origin: string | undefined
  try {
    origin = target.origins(x, ctx.proxies)
  } catch (err) {
    // An `allowedOrigins` function that throws allows nothing.
    logRequest(ctx.log, x, `allowedOrigins of WebSocket route ${target.route.path} failed`, err)
    origin = x.header('origin') ?? x.header('sec-websocket-origin') ?? ''
  }
  if (origin === undefined) return undefined
  const { info } = target.route
  x.route = info
  const message = `403 on GET ${x.path} (${info.controller}.${info.action}): WebSocket upgrade from origin ${JSON.stringify(origin)} refused: not the app's own origin and not in allowedOrigins`
  logRequest(ctx.log, x, message, undefined, `403 GET ${target.route.path} origin refused`)
  return errorPage(
    ctx,
    x.header('accept') ?? null,
    403,
    `Forbidden: this WebSocket route does not accept connections from pages of ${origin}`,
  )
}
