/**
 * The signed-in session and "log out everywhere". The session plugin ends one session by itself
 * (logout empties it: its id is revoked; a login renews it: the pre-login cookie is revoked). To
 * end every session of a user, on every device, each session keeps the user's
 * `session_generation` from the moment of its login; logging out everywhere adds one to the
 * column, and a session whose generation is not the user's current one signs nobody in.
 * Kept in the users table, so every instance of the app sees it at once.
 */
import { renewSession } from 'vela'
import type { VelaRequest } from 'vela'
import { cast } from 'vela/dbl'
import type { RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'

/** Starts a new session for `username` (a new cookie: the one before the login opens nothing). */
export async function startSession(req: VelaRequest, username: string): Promise<void> {
  const user = await repo.getBy(User, { name: username })
  if (!user) throw new Error(`user ${username} vanished during the login`)
  renewSession(req, { username, generation: user.session_generation })
}

/** The user of the request's session, if it exists and has not logged out everywhere since. */
export async function sessionUser(req: VelaRequest): Promise<RecordOf<typeof User> | undefined> {
  const { username, generation } = req.session ?? {}
  if (typeof username !== 'string') return undefined
  const user = await repo.getBy(User, { name: username })
  return user?.session_generation === generation ? user : undefined
}

/** Ends every session of `username`: those of other browsers at their next request. */
export async function endAllSessions(username: string): Promise<void> {
  const user = await repo.getBy(User, { name: username })
  if (!user) return
  const res = await repo.update(
    cast(User, user, { session_generation: user.session_generation + 1 }, ['session_generation']),
  )
  if (!res.ok) throw res.error
}
