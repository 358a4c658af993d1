/**
 * The route each request was dispatched to, for low-level stream handlers (`wrap`, `wrapNode`,
 * `wrapUpgrade`): they run outside routing, so they cannot see `req.route`. Observers get it in
 * their outcome (`end(outcome)`: `outcome.route`) and need not call this.
 *
 *   defineStreamHandler({ name: 'by-route', wrapNode: (next) => (req, res) => {
 *     res.once('finish', () => count(matchedRoute(req)?.path ?? 'unrouted'))
 *     next(req, res)
 *   }, wrap: … })
 *
 * Read it once `next` has answered (the response, its end, an upgrade decision): before that the
 * route is not known. Pass what the stream handler was given: the web `Request` of `wrap` and
 * `wrapUpgrade`, or node's `IncomingMessage` of `wrapNode`. Undefined for requests no route took:
 * 404s, 405s, malformed or too long URLs. A CORS preflight that ran a route's group plugins
 * reports that route.
 *
 * The runtime records the route on the request's exchange when the route's pipeline starts
 * (server/pipeline/run.ts), and the exchange is registered on the object that carried the request
 * (server/exchange/exchange.ts): no work for this beyond a field write per request.
 */
import type { IncomingMessage } from 'node:http'
import type { RouteInfo } from '../contracts/request.ts'
import { exchangeOf } from '../exchange/exchange.ts'

/** The route `request` was dispatched to, once it has been (undefined for unrouted requests). */
export function matchedRoute(request: Request | IncomingMessage): RouteInfo | undefined {
  return exchangeOf(request)?.route
}
