/**
 * The observer contract of stream handlers: how code outside the app (metrics, tracing, access
 * logs) sees every request, 404s and WebSocket handshakes included. The runtime calls it the same
 * way on every path: node's listener, `app.fetch` (a web `Request`) and WebSocket upgrades.
 *
 *   defineStreamHandler({
 *     name: 'access-log',
 *     observe: (config) => (facts) => {
 *       const started = performance.now()
 *       return { end: (o) => log(`${facts.method} ${facts.path} ${o.status} ${o.responseBodySize}B ${o.route?.path ?? '-'} ${performance.now() - started}ms`) }
 *     },
 *   })
 *
 * Calls, per request: `observer(facts)` as the request starts (outermost handler first; each
 * inner observer is called inside the outer ones' `run`); then `watch.run(next)`, if present,
 * around the rest of the request, which it must call before returning (OpenTelemetry runs it
 * inside the span's context); then `watch.end(outcome)` once, when the response has been sent
 * or the client went away (innermost first). Types only; imports nothing of the tree.
 */
import type { RequestFacts, RouteInfo } from './request.ts'

/** How a request ended, as an observer's `end` receives it: status, body size, route and error. */
export interface RequestOutcome {
  /**
   * The status sent: 101 for an accepted WebSocket upgrade; 499 (nginx's "client closed request")
   * when the client closed the connection before the response began.
   */
  readonly status: number
  /** Body bytes sent, after compression; 0 for HEAD, 204, 304 and accepted upgrades. */
  readonly responseBodySize: number
  /** The route that took the request; undefined for requests no route took (404, 405, 400, 414). */
  readonly route: RouteInfo | undefined
  /** Set when a stream handler failed while the request started: the response was the 500 page. */
  readonly error?: unknown
  /** What the route threw when it answered with a server error (a 500, or `vela/dbl`'s coded 503/504). */
  readonly exception?: unknown
}

/** What an observer keeps for one request. */
export interface RequestWatch {
  /** Runs the rest of the request, e.g. inside a context (AsyncLocalStorage); must call `next` once before returning. */
  run?(next: () => void): void
  /** The response has been sent, or abandoned. A throw here is logged; the request is over. */
  end(outcome: RequestOutcome): void
}

/** Called as each request starts; returns what to watch, or nothing to let this request pass. */
export type RequestObserver = (facts: RequestFacts) => RequestWatch | undefined | void
