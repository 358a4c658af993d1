/**
 * The route each request was dispatched to, for low-level stream handlers (`wrap`, `wrapNode`,
 * `wrapUpgrade`): they run outside routing, so they cannot see `req.route`. Observers get it in
 * their outcome (`end(outcome)`: `outcome.route`) and need not call this.
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

/**
 * The route `request` was dispatched to (undefined for unrouted requests), for low-level stream handlers.
 *
 * They run outside routing: read it once `next` has answered.
 *
 * @example
 * ```ts
 * import { defineStreamHandler, matchedRoute } from 'vela'
 *
 * const hits = new Map<string, number>()
 *
 * export const hitsByRoute = defineStreamHandler({
 *   name: 'hits-by-route',
 *   wrap: (next) => async (request) => {
 *     const response = await next(request)
 *     const path = matchedRoute(request)?.path ?? 'unrouted'
 *     hits.set(path, (hits.get(path) ?? 0) + 1)
 *     return response
 *   },
 * })
 * ```
 */
export function matchedRoute(request: Request | IncomingMessage): RouteInfo | undefined {
  return exchangeOf(request)?.route
}
