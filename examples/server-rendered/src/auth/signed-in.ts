import { redirect } from 'vela'
import type { VelaRequest } from 'vela'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'

/** What the security check puts in `req.authData`. */
export type SignedIn = { readonly userId: number; readonly email: string }

/**
 * The security check of the signed-in pages: the session (in the `bookmarks_session` cookie) must
 * name a user that exists. Anyone else is sent to the login form, and no handler runs.
 */
export async function signedIn(req: VelaRequest) {
  const id = req.session?.user_id
  const user = typeof id === 'number' ? await repo.get(User, id) : undefined
  if (!user) return redirect('/login')
  const who: SignedIn = { userId: user.id, email: user.email }
  return who
}

/** The signed-in user (the group's security check has run). */
export const userOf = (req: VelaRequest) => req.authData as SignedIn
