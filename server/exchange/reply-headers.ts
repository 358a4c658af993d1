/**
 * Headers a request adds to whatever reply it gets (`req.setHeader` from a plugin or a handler,
 * `setHeader` in an `onRequest` hook) and its id header, unless the reply has one already, merged
 * by the exchange into the outcome it sends: a route's reply, a plugin's, an error page, a 404.
 * Cheap on the direct node path: an encoded reply gets a new plain header object (its own may be
 * a shared constant) that node's `writeHead` writes as before; no web `Response` or `Headers` is
 * made. A `Response` has its headers set in place, or is copied when they are immutable.
 */
import type { Outcome } from '../respond.ts'
import { userHeader, writableResponse } from '../respond.ts'

// The body's framing is the reply's own; cookies are many values under one name (`req.setCookie`).
const REFUSED: Readonly<Record<string, string>> = {
  'content-length': 'the reply sets its own length',
  'transfer-encoding': 'the reply sets its own framing',
  'set-cookie': 'a request sets cookies with req.setCookie(name, value, options)',
}

/** The header as a request adds it: its lowercase name, checked (a TypeError saying what is wrong). */
export function addedHeaderName(name: string, value: string): string {
  const key = typeof name === 'string' ? name.toLowerCase() : name
  const refused = REFUSED[key]
  if (refused !== undefined) throw new TypeError(`req.setHeader(${JSON.stringify(name)}): ${refused}`)
  if (typeof value !== 'string')
    throw new TypeError(
      `req.setHeader(${JSON.stringify(name)}, value): the value must be a string, got ${typeof value}`,
    )
  userHeader(key, value)
  return key
}

/**
 * The outcome with `added` (they win over the reply's own headers of the same name) and the id
 * header (`idHeader: request.id`, when the app sends one) set. The id is a default: a reply that
 * already carries that header, from the app or a plugin, keeps its own value.
 */
export function withHeaders(
  outcome: Outcome,
  added: Readonly<Record<string, string>> | undefined,
  idHeader: string | undefined,
  request: { readonly id: string },
): Outcome {
  if (added === undefined && idHeader === undefined) return outcome
  if (outcome instanceof Response) {
    // One look at the response's own headers; `added` has lowercase names, as `idHeader` is.
    const hasId = idHeader === undefined || outcome.headers.has(idHeader) || (added !== undefined && idHeader in added)
    // Nothing to change: no copy of immutable headers to make.
    if (added === undefined && hasId) return outcome
    const response = writableResponse(outcome)
    const headers = response.headers
    for (const name in added) headers.set(name, added[name]!)
    if (!hasId) headers.set(idHeader, request.id)
    return response
  }
  return {
    status: outcome.status,
    headers: mergedHeaders(outcome.headers, added, idHeader, request),
    body: outcome.body,
  }
}

/**
 * `withHeaders` for an encoded reply's own headers: the headers it is sent with. `defaults`: an
 * `onResponse` hook's `setDefaults` (on-response.ts, `responseDefaults`), applied as it applies
 * them after the rest: first in the order of the headers, but only where the reply, the added
 * headers and the id header leave a name unset.
 */
export function mergedHeaders(
  own: Readonly<Record<string, string>> | undefined,
  added: Readonly<Record<string, string>> | undefined,
  idHeader: string | undefined,
  request: { readonly id: string },
  defaults?: Readonly<Record<string, string>>,
): Record<string, string> {
  // Copied key by key into a new literal: the copy keeps a fast shape that node's writeHead walks
  // quickly (an object spread here made node's header writing three times slower).
  const headers: Record<string, string> = {}
  for (const name in defaults) headers[name] = defaults[name]!
  for (const name in own) headers[name] = own[name]!
  for (const name in added) headers[name] = added[name]!
  // The id unless the reply or the added headers name it (a default does not stand in for it).
  if (idHeader !== undefined && !setBy(idHeader, own, added)) headers[idHeader] = request.id
  return headers
}

/** Whether the reply's own headers or the added ones have `name` (not only the defaults). */
const setBy = (
  name: string,
  own: Readonly<Record<string, string>> | undefined,
  added: Readonly<Record<string, string>> | undefined,
): boolean => (own !== undefined && name in own) || (added !== undefined && name in added)
