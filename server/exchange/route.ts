/**
 * Routing, in one place for every exchange (node's, the web's, an upgrade that no WebSocket route
 * takes), compiled once at start-up:
 *
 *   request checks (400 two `Host` headers, 400 invalid percent-encoding, 414 too long)
 *   → the health endpoints (health.ts)
 *   → the route table (404; 405 with `allow`; an OPTIONS preflight through the group's pre
 *   plugins) → the route's pipeline
 *
 * Unrouted requests get the status page of the most specific group whose prefix they fall under.
 */
import { resolve } from 'node:path'
import type { CompiledGroup, CompiledRoute, Handler, RouteTable, StaticRouteHandler } from '../contracts/routes.ts'
import type { RouteInfo } from '../contracts/request.ts'
import { logKey } from '../app/coalesce-log.ts'
import { logRequest } from '../app/request-log.ts'
import { errorPage } from '../errors/error-page.ts'
import { httpError } from '../errors/http-error.ts'
import { statusPage } from '../pipeline/failure.ts'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'
import { VelaRequest } from '../request.ts'
import type { Outcome } from '../respond.ts'
import { NO_BINDINGS, buildMatcher, decodeParams } from '../router/dispatch.ts'
import { staticHandlerAt } from '../static/static-dir.ts'
import type { Exchange } from './exchange.ts'
import type { HealthEndpoints } from './health.ts'

/** What serves an exchange: its outcome, a promise only when something in it was asynchronous. */
export type Serve<X extends Exchange = Exchange> = (x: X) => Outcome | Promise<Outcome>

interface Target {
  readonly run: RouteRunner
  readonly route: CompiledRoute
  preflight?: RouteRunner
}

const MALFORMED = 'Bad Request: invalid percent-encoding in the URL path'
const TWO_HOSTS = 'Bad Request: more than one Host header (or a Host with a comma)'

/**
 * The request has two `Host` headers, which HTTP/1.1 answers with a 400: the app and a proxy in
 * front of it could each take a different one. node's listener joins repeated headers with `, `
 * (server/listener/listen.ts sets `joinDuplicateHeaders`), as web `Headers` do, and no host name
 * holds a comma; so one substring test on a header node has already parsed.
 */
export const hasTwoHosts = (x: Exchange): boolean => x.header('host')?.includes(',') === true

export function createRouting(opts: {
  table: RouteTable
  ctx: PipelineContext
  /** Where relative `staticDir(...)` paths resolve. */
  root: string
  maxUrlLength: number
  backend: 'compiled' | 'tree'
  health?: HealthEndpoints
}): Serve {
  const { table, ctx, maxUrlLength, health } = opts
  // Two string comparisons a request (against undefined when the endpoints are off).
  const live = health?.live ?? undefined
  const ready = health?.ready ?? undefined
  const root = resolve(opts.root)
  const handlerOf = (route: CompiledRoute): Handler => {
    if (route.kind === 'static') return staticHandlerAt(route.handler as StaticRouteHandler, root)
    if (route.kind === 'ws')
      return () => {
        throw httpError(426, 'Upgrade Required: this route speaks WebSocket', { upgrade: 'websocket' })
      }
    return route.handler as Handler
  }
  const match = buildMatcher<Target>(
    table.routes,
    (route) => ({ route, run: createRouteRunner(route, handlerOf(route), ctx, ctx.routeChecks?.get(route)) }),
    opts.backend,
  )

  // Groups that define status routes, longest prefix first: an unrouted request gets the page of
  // the most specific group whose prefix it falls under.
  const statusGroups = table.groups
    .filter((g) => g.statusRoutes.size > 0)
    .sort((a, b) => b.prefix.length - a.prefix.length)
  const groupFor = (path: string, status: number): CompiledGroup | undefined =>
    statusGroups.find(
      (g) =>
        g.statusRoutes.has(status) &&
        (g.prefix === '' || path === g.prefix || path.startsWith(g.prefix.endsWith('/') ? g.prefix : `${g.prefix}/`)),
    )

  const unrouted = (x: Exchange, status: number, headers?: Record<string, string>): Promise<Response> => {
    const group = groupFor(x.path, status)
    const custom = group?.statusRoutes.get(status)
    const info: RouteInfo = {
      path: x.path,
      prefix: group?.prefix ?? '',
      controller: custom?.identity.controller ?? 'vela',
      action: custom?.identity.action ?? String(status),
    }
    return statusPage(
      ctx,
      status,
      new VelaRequest(x, info, NO_BINDINGS, undefined, ctx),
      group,
      undefined,
      undefined,
      headers,
    )
  }
  const page = (x: Exchange, status: number, message: string) =>
    errorPage(ctx, x.header('accept') ?? null, status, message)

  // The route pipelines answer their own errors; the `catch` guards the routing step itself.
  return function route(x) {
    try {
      if (hasTwoHosts(x)) return page(x, 400, TWO_HOSTS)
      if (x.malformed) return page(x, 400, MALFORMED)
      if (x.targetLength > maxUrlLength)
        return page(x, 414, `URI Too Long: the request target exceeds ${maxUrlLength} bytes`)
      const path = x.path
      if (path === ready || path === live) return health!.answer(x)
      const found = match(path)
      if (!found) return unrouted(x, 404)
      let target = found.data.byMethod[x.method]
      let run = target?.run
      if (!target) {
        const allow = found.data.allow
        if (x.method !== 'OPTIONS') return unrouted(x, 405, { allow })
        // A CORS preflight goes through the group's plugins even when the route lists no OPTIONS.
        target = found.data.first
        run = target.preflight ??= createRouteRunner(
          { ...target.route, group: { ...target.route.group, security: false } },
          () => {
            throw httpError(405, undefined, { allow })
          },
          ctx,
        )
      }
      // Without escapes, rou3's params (a fresh object per match) are the bindings as they are,
      // unless a `[...]` rest needs splitting off.
      if (!x.escaped && !found.data.wildcard) return run!(x, found.params ?? NO_BINDINGS, undefined)
      let decoded
      try {
        decoded = decodeParams(found)
      } catch {
        return page(x, 400, MALFORMED)
      }
      return run!(x, decoded.bindings, decoded.pathInfo)
    } catch (err) {
      logRequest(ctx.log, x, `500 on ${x.method} ${x.path} before routing`, err, logKey('500 before routing', err))
      return errorPage(ctx, x.header('accept') ?? null, 500, undefined, err)
    }
  }
}
