/**
 * Routing a request to its route, after the exchange's own checks (exchange/route.ts): the path
 * through the route table, then the method:
 *
 *   no route has the path → 404
 *   a route has the path and the method (HEAD: a GET route's) → that route's pipeline
 *   OPTIONS, no route lists it → the preflight through the group's plugins (preflight.ts)
 *   any other method → 405 with `allow`
 *
 * 404 and 405 are the most specific group's status route, or the built-in page (unrouted.ts).
 */
import { resolve } from 'node:path'
import type { CompiledRoute, Handler, RouteTable, StaticRouteHandler } from '../contracts/routes.ts'
import { errorPage } from '../errors/error-page.ts'
import { httpError } from '../errors/http-error.ts'
import type { Exchange } from '../exchange/exchange.ts'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'
import type { Outcome } from '../respond.ts'
import { staticHandlerAt } from '../static/static-dir.ts'
import { NO_BINDINGS, buildMatcher, decodeParams } from './dispatch.ts'
import { preflightRunner } from './preflight.ts'
import { createUnrouted } from './unrouted.ts'

/** The 400's message for a path with an invalid percent-escape (in a parameter, or anywhere in it). */
export const MALFORMED_PATH = 'Bad Request: invalid percent-encoding in the URL path'

interface Target {
  readonly run: RouteRunner
  readonly route: CompiledRoute
  preflight?: RouteRunner
}

/** Answers an exchange through the route table: its route's outcome, or a 404, 405 or preflight. */
export type RouteRequest = (x: Exchange) => Outcome | Promise<Outcome>

export function createRouteRequest(opts: {
  table: RouteTable
  ctx: PipelineContext
  /** Where relative `staticDir(...)` paths resolve. */
  root: string
  backend: 'compiled' | 'tree'
}): RouteRequest {
  const { table, ctx } = opts
  const root = resolve(opts.root)
  const handlerOf = (route: CompiledRoute): Handler => {
    if (route.kind === 'static') return staticHandlerAt(route.handler as StaticRouteHandler, root)
    if (route.kind === 'ws')
      return () => {
        throw httpError(426, 'Upgrade Required: this route speaks WebSocket', { headers: { upgrade: 'websocket' } })
      }
    return route.handler as Handler
  }
  const match = buildMatcher<Target>(
    table.routes,
    (route) => ({ route, run: createRouteRunner(route, handlerOf(route), ctx, ctx.routeChecks?.get(route)) }),
    opts.backend,
  )
  const unrouted = createUnrouted(table, ctx)

  return function routeRequest(x) {
    const found = match(x.path)
    if (!found) return unrouted(x, 404)
    const target = found.data.byMethod[x.method]
    let run = target?.run
    if (!run) {
      const allow = found.data.allow
      if (x.method !== 'OPTIONS') return unrouted(x, 405, { allow })
      const first = found.data.first
      run = first.preflight ??= preflightRunner(first.route, allow, ctx)
    }
    // Without escapes, rou3's params (a fresh object per match) are the bindings as they are,
    // unless a `[...]` rest needs splitting off.
    if (!x.escaped && !found.data.wildcard) return run(x, found.params ?? NO_BINDINGS, undefined)
    let decoded
    try {
      decoded = decodeParams(found)
    } catch {
      return errorPage(ctx, x.header('accept') ?? null, 400, MALFORMED_PATH)
    }
    return run(x, decoded.bindings, decoded.pathInfo)
  }
}
