/**
 * The route each request was dispatched to, for the stream handlers around the dispatcher (they
 * run outside routing, so they cannot see `req.route`). The runtime records it when the route's
 * pipeline starts (server/pipeline/run.ts), for every route of every group, whatever plugins the
 * group lists; `matchedRoute(request)` reads it.
 *
 *   defineStreamHandler({ name: 'by-route', wrapNode: (next) => (req, res) => {
 *     res.once('finish', () => count(matchedRoute(req)?.path ?? 'unrouted'))
 *     next(req, res)
 *   }, wrap: … })
 *
 * Read it once `next` has answered (the response, its end, an upgrade decision): before that the
 * route is not known. Pass what the stream handler was given: the web `Request` of `wrap` and
 * `wrapUpgrade`, or node's `IncomingMessage` of `wrapNode` (recorded on it on both node paths,
 * the direct one and the fetch path srvx takes). Undefined for requests no route took: 404s,
 * 405s, malformed or too long URLs. A CORS preflight that ran a route's group plugins reports
 * that route.
 *
 * **Choice:** a property under a private symbol on the request object rather than a WeakMap or
 * an AsyncLocalStorage: one write per request, no extra work for the garbage collector, and no
 * context to carry. Kept minimal on purpose: one read function, not a general observer contract.
 */
import type { IncomingMessage } from 'node:http'
import { H3Event } from 'h3'
import type { NodeOrigin, RouteInfo } from '../request.ts'
import { nodeRequestOf } from '../request-body.ts'

const kRoute = Symbol('vela.matchedRoute')

type Carrier = { [kRoute]?: RouteInfo }

/** Called by the route pipeline as it starts: the request was routed to `route`. */
export function recordRoute(origin: H3Event | NodeOrigin, route: RouteInfo): void {
  if (origin instanceof H3Event) {
    ;(origin.req as Carrier)[kRoute] = route
    const node = nodeRequestOf(origin)
    if (node) (node as Carrier)[kRoute] = route
  } else {
    ;(origin.req as Carrier)[kRoute] = route
  }
}

/** The route `request` was dispatched to, once it has been (undefined for unrouted requests). */
export function matchedRoute(request: Request | IncomingMessage): RouteInfo | undefined {
  return (request as Carrier)[kRoute]
}
