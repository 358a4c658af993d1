/**
 * What every exchange (node's, the web's, an upgrade that no WebSocket route takes) goes through
 * before its route, compiled once at start-up:
 *
 *   request checks (400 two `Host` headers, 400 invalid percent-encoding, 414 too long)
 *   → the health endpoints (health.ts)
 *   → routing (server/router/route-request.ts: 404; 405 with `allow`; an OPTIONS preflight
 *   through the group's pre plugins) → the route's pipeline
 */
import type { RouteTable } from '../contracts/routes.ts'
import { logKey } from '../app/coalesce-log.ts'
import { logRequest } from '../app/request-log.ts'
import { errorPage } from '../errors/error-page.ts'
import type { PipelineContext } from '../pipeline/run.ts'
import type { Outcome } from '../respond.ts'
import { MALFORMED_PATH, createRouteRequest } from '../router/route-request.ts'
import type { Exchange } from './exchange.ts'
import type { HealthEndpoints } from './health.ts'

/** What serves an exchange: its outcome, a promise only when something in it was asynchronous. */
export type Serve<X extends Exchange = Exchange> = (x: X) => Outcome | Promise<Outcome>

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
  const { ctx, maxUrlLength, health } = opts
  // Two string comparisons a request (against undefined when the endpoints are off).
  const live = health?.live ?? undefined
  const ready = health?.ready ?? undefined
  const routeRequest = createRouteRequest(opts)
  const page = (x: Exchange, status: number, message: string) =>
    errorPage(ctx, x.header('accept') ?? null, status, message)

  // The route pipelines answer their own errors; the `catch` guards the routing step itself.
  return function route(x) {
    try {
      if (hasTwoHosts(x)) return page(x, 400, TWO_HOSTS)
      if (x.malformed) return page(x, 400, MALFORMED_PATH)
      if (x.targetLength > maxUrlLength)
        return page(x, 414, `URI Too Long: the request target exceeds ${maxUrlLength} bytes`)
      const path = x.path
      if (path === ready || path === live) return health!.answer(x)
      return routeRequest(x)
    } catch (err) {
      logRequest(ctx.log, x, `500 on ${x.method} ${x.path} before routing`, err, logKey('500 before routing', err))
      return errorPage(ctx, x.header('accept') ?? null, 500, undefined, err)
    }
  }
}
