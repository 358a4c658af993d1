/**
 * Who may open the dashboard: loopback peers only (127.0.0.0/8, ::1, and IPv4-mapped loopback),
 * holding the dev server's token. The token is made per start and printed in the start line as a
 * link (`/__vela?token=…`); opening it sets a cookie scoped to `/__vela`, so the pages, the script
 * and the event stream work without the token in every URL. Proxy headers are never consulted:
 * the socket's peer is the client.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** The cookie the token is kept in once the link has been opened. */
export const TOKEN_COOKIE = 'vela_dashboard'

/** A fresh random token for one start of the dev server. */
export const newToken = (): string => randomBytes(18).toString('base64url')

/** Whether `address` (as node reports a socket's peer) is this machine's loopback. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4)
}

/** The token the request carries: `?token=` first, else the cookie. */
export function tokenOf(req: IncomingMessage, url: URL): { token: string | undefined; fromQuery: boolean } {
  const fromQuery = url.searchParams.get('token')
  if (fromQuery !== null) return { token: fromQuery, fromQuery: true }
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at !== -1 && part.slice(0, at).trim() === TOKEN_COOKIE)
      return { token: part.slice(at + 1).trim(), fromQuery: false }
  }
  return { token: undefined, fromQuery: false }
}

/** Constant-time comparison of the given token with the expected one. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
