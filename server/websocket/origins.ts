/**
 * The `Origin` check of WebSocket upgrades (`allowedOrigins`).
 *
 * Browsers send the user's cookies with a WebSocket request to any site, and the same-origin
 * policy does not apply to WebSockets: without a check, any page a signed-in user visits could
 * open the app's sockets as that user. Browsers always send `Origin` with a WebSocket request and
 * a page cannot change it, so comparing it is the check. A request without one is not from a
 * browser page (a CLI, a server, a test client): it carries no ambient cookies a page could
 * borrow, and it could write any `Origin` it liked anyway, so it is let through.
 *
 * Same origin: the `Origin` equals the request's own `scheme://host[:port]`: the scheme as
 * `req.scheme` gives it (a trusted proxy's `X-Forwarded-Proto` honoured, `server.trustProxy`),
 * the host and port of the `Host` header (no port: the scheme's default, as in a URL). Both sides
 * are compared as URLs serialise origins (lowercase, default port left out).
 */
import type { AllowedOrigins } from '../contracts/websocket.ts'
import type { ProxyTrust, RequestFacts } from '../contracts/request.ts'
import { clientScheme } from '../exchange/forwarded.ts'

/** `text` as a serialised origin (`https://example.com`, `http://[::1]:8080`), or undefined when it is not one (a path, credentials, `null`). */
export function normalOrigin(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return undefined
  }
  if (
    url.origin === 'null' ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  )
    return undefined
  return url.origin
}

/** The origin the request was sent to, as a browser on the same site would name it. */
function ownOrigin(x: RequestFacts, proxies: ProxyTrust | undefined): string | undefined {
  const scheme = proxies ? clientScheme(x, proxies) : x.scheme
  const host = x.header('host') ?? `${x.host}:${x.port}`
  return normalOrigin(`${scheme}://${host}`)
}

/** Gives the `Origin` of an upgrade that is not allowed, or undefined to let it through. */
export type OriginGate = (x: RequestFacts, proxies: ProxyTrust | undefined) => string | undefined

/** The gate of one route, compiled once from its (checked) `allowedOrigins`. */
export function originGate(allowed: AllowedOrigins): OriginGate {
  if (allowed === '*' || (Array.isArray(allowed) && allowed.includes('*'))) return () => undefined
  const listed = typeof allowed === 'function' ? allowed : inList(allowed as readonly string[])
  return (x, proxies) => {
    // Version 8 of the protocol (before the RFC) named it `Sec-WebSocket-Origin`.
    const origin = x.header('origin') ?? x.header('sec-websocket-origin')
    if (origin === undefined) return undefined
    const normal = normalOrigin(origin)
    if (normal !== undefined && normal === ownOrigin(x, proxies)) return undefined
    return listed(origin) ? undefined : origin
  }
}

function inList(list: readonly string[]): (origin: string) => boolean {
  if (list.length === 0) return () => false
  const origins = new Set(list.map(normalOrigin))
  return (origin) => {
    const normal = normalOrigin(origin)
    return normal !== undefined && origins.has(normal)
  }
}
