/**
 * What the session plugin remembers about one request between its two phases, and
 * `renewSession`, the handler's way to start a fresh session (rotation at login).
 */
import type { H3Event } from 'h3'
import { VelaError } from '../../errors/vela-error.ts'
import type { VelaRequest } from '../../request.ts'
import type { SessionTimes } from './lifetime.ts'

/** A session's data (`req.session`): values that survive JSON. */
export type SessionData = Record<string, unknown>

/** The request's session as the pre-request phase found it. */
export interface LoadedSession {
  /** The session of a valid cookie (absent: no cookie, or one refused). */
  readonly current?: SessionTimes & { readonly id: string }
  /** A session cookie came and was refused (did not unseal, expired, revoked, or not validated). */
  readonly refused: boolean
  /** The data as loaded, JSON, to tell whether the handler changed it. */
  readonly json: string
  /** Set by `renewSession`: the post-request phase seals a new session and revokes `current`. */
  renew: boolean
}

export const loadedSessions = new WeakMap<H3Event, LoadedSession>()

/**
 * Starts a new session for this request (at login), revoking the one it came with.
 *
 * When the reply is sent, the cookie gets a new session id and a new start time (the absolute lifetime counts from now), and the session the request
 * came with is revoked, so a copy of the old cookie opens nothing. `req.session` becomes `data`:
 * the old data is dropped (a CSRF token made before the login too) unless you pass it on.
 * Call it when a user logs in, or when their privileges change. An empty `data` ends the session.
 * Throws when the session plugin does not run on the route.
 *
 * @example
 * ```ts
 * import { redirect, renewSession, type VelaRequest } from 'vela'
 *
 * // POST /login: the group's security callback checked the credentials and returned { username }.
 * export function create(req: VelaRequest<{ username: string }>) {
 *   renewSession(req, { username: req.authData.username })
 *   return redirect('/notes')
 * }
 * ```
 */
export function renewSession(req: VelaRequest, data: SessionData = {}): SessionData {
  const loaded = loadedSessions.get(req.event)
  if (!loaded)
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      "renewSession: the session plugin does not run on this route (list sessionPlugin(…) in its group's plugins)",
    )
  loaded.renew = true
  req.session = { ...data }
  return req.session
}
