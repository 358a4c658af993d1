/**
 * The app-wide response hook (`onResponse` in the app config): what it is given for every reply,
 * whoever produced it (a route, a plugin that stopped, a security callback, a 404 or 405 of
 * routing, an error page, a health endpoint, a handler deadline's 503, a static file). Types only;
 * imports nothing of the tree but other contracts.
 */
import type { RequestFacts, RouteInfo } from './request.ts'

/**
 * A reply about to be sent, as `onResponse` hooks see it: its status, its headers (read and
 * changed here; the body is not theirs), the request's facts and where it was routed.
 */
export interface OutgoingResponse {
  /** The status about to be sent (101 for an accepted WebSocket upgrade). */
  readonly status: number
  /** The request's facts, the object stream handler observers were given. */
  readonly request: RequestFacts
  /** The route that took the request; undefined for requests no route took (404, 405, 400, 414, health endpoints). */
  readonly route: RouteInfo | undefined
  /**
   * The scheme the client used: the socket's, or behind a proxy listed in `server.trustProxy` its
   * `X-Forwarded-Proto` (what `req.scheme` gives a handler).
   */
  readonly scheme: 'http' | 'https'
  /** One header of the reply by name (any case); undefined when it has none. */
  header(name: string): string | undefined
  /**
   * Every header of the reply as `[name, value]` pairs, names lowercase; each `set-cookie` is a
   * pair of its own. A copy: changing it changes nothing.
   */
  headerEntries(): [string, string][]
  /** Sets a header of the reply (any case), replacing what it had. A value a header cannot carry throws. */
  setHeader(name: string, value: string): void
  /** Removes a header of the reply (any case). */
  removeHeader(name: string): void
  /**
   * Sets each of `headers` that the reply does not have yet, so a header the handler set itself
   * wins. Names must be lowercase. Give the same (frozen) object on every call: it is checked once.
   */
  setDefaults(headers: Readonly<Record<string, string>>): void
}

/**
 * Called for every reply of the app just before it is written, after compression. Synchronous
 * (a returned value is ignored); a throw is logged and the reply goes out with the changes made
 * before it.
 */
export type ResponseHook = (response: OutgoingResponse) => void
