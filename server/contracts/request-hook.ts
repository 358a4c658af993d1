/**
 * The app-wide request hook (`onRequest` in the app config): what it is given for every request,
 * before routing (routed or not, WebSocket upgrades included), and what it may return. Types only;
 * imports nothing of the tree but other contracts and the reply types.
 */
import type { Reply } from '../replies.ts'
import type { RequestFacts } from './request.ts'

/**
 * A request as `onRequest` hooks see it: its facts (method, path, headers, peer, `id`…) and the
 * means to add headers to whatever reply it gets.
 */
export interface IncomingRequest extends RequestFacts {
  /**
   * Adds a header (any case) to the reply this request gets, whoever makes it (a route, a plugin,
   * an error page, a 404). A later call with the same name replaces it. A value a header cannot
   * carry throws, as do `content-length`, `transfer-encoding` and `set-cookie` (the body's own,
   * and cookies are set by handlers and plugins with `req.setCookie(name, value, options)`).
   */
  setHeader(name: string, value: string): void
}

/** What an `onRequest` hook may give: nothing (go on), or a reply or `Response` sent at once. */
export type RequestHookResult = void | undefined | Reply | Response

/**
 * Called for every request of the app before routing, in the order listed. Returning nothing lets
 * the request go on; returning a reply (`json(…)`, `status(…)`, `redirect(…)`) or a `Response`
 * answers it at once: no later hook, no routing, no plugin runs, and the reply still goes through
 * the `onResponse` hooks. May be async. A throw is answered as a route's throw is (`httpError`
 * with its status, anything else a logged 500).
 */
export type RequestHook = (request: IncomingRequest) => RequestHookResult | PromiseLike<RequestHookResult>
