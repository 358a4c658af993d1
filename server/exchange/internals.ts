/**
 * The few h3 and srvx internals Vela reads, in one place (each one pinned by a contract test, so
 * an upgrade of either library that moves one fails there first):
 *
 * - h3's event flags a request path with invalid percent-encoding (`h3.internal.event.malformed`);
 * - headers set through h3 utilities (`setCookie`, CORS helpers) live on the event's response
 *   (`h3.internal.event.res` → `…res.headers`) until the response is made;
 * - srvx's fast response gives its status, headers and body as node writes them (`_toNodeResponse`),
 *   so a string body goes out in one `end()` without a web stream.
 */
import type { H3Event } from 'h3'

const kMalformedURL = Symbol.for('h3.internal.event.malformed')
const kEventRes = Symbol.for('h3.internal.event.res')
const kEventResHeaders = Symbol.for('h3.internal.event.res.headers')

/** The event's URL path has invalid percent-encoding (h3 flags it instead of throwing). */
export function isMalformedURL(event: H3Event): boolean {
  return (event as unknown as Record<symbol, boolean | undefined>)[kMalformedURL] === true
}

/** Headers set through h3 utilities on the event, if any were. */
export function preparedHeaders(event: H3Event): Headers | undefined {
  return (event as unknown as Record<symbol, Record<symbol, Headers | undefined> | undefined>)[kEventRes]?.[
    kEventResHeaders
  ]
}

/** A response as node writes it: flat `[name, value, …]` headers. */
export interface NodeShaped {
  status: number
  statusText?: string
  headers: string[]
  body: unknown
}

/** srvx's fast response in node's terms, or undefined for other responses. */
export function toNodeShaped(response: Response): NodeShaped | undefined {
  const toNode = (response as Response & { _toNodeResponse?: () => NodeShaped })._toNodeResponse
  return toNode?.call(response)
}
