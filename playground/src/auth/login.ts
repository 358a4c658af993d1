/**
 * The `username_password` security callback of the login and notes groups, and
 * the demo account.
 *
 * - On the login route (`POST /`): checks the form's `username` and `password` against the users
 *   table. Success: `{ authed: true, username, userId }` becomes `req.authData` and the login
 *   handler stores the user in the session. Failure (unknown user, wrong password, missing fields): a
 *   redirect to `/login?error=1`, the same answer in about the same time whatever the reason
 *   (an unknown user is verified against a dummy hash).
 * - Everywhere else: the user stored in the session, `{ authed: true, username, userId }`; without one,
 *   or when the user has logged out everywhere since the session began (./sessions.ts), a
 *   redirect to `/login` (so no handler of the notes pages runs for an anonymous visitor).
 */
import { redirect } from 'vela'
import type { Reply, VelaRequest } from 'vela'
import { cast } from 'vela/dbl'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.ts'
import { sessionUser } from './sessions.ts'

// A type alias, not an interface: security callbacks return `Record<string, unknown>`-shaped data.
export type AuthData = { readonly authed: true; readonly username: string; readonly userId: number }

/** The signed-in user. */
export interface SignedInUser {
  readonly id: number
  readonly name: string
}

/** The signed-in user the security callback put in `req.authData`, if any. */
export function signedIn(req: VelaRequest): SignedInUser | undefined {
  const auth = req.authData as Partial<AuthData> | undefined
  return auth?.authed === true && typeof auth.username === 'string' && typeof auth.userId === 'number'
    ? { id: auth.userId, name: auth.username }
    : undefined
}

const authData = (user: SignedInUser): AuthData => ({ authed: true, username: user.name, userId: user.id })

const LOGIN_FAILED = '/login?error=1'

export async function username_password(req: VelaRequest): Promise<AuthData | Reply> {
  if (req.method === 'POST' && req.route.path === '/') return checkCredentials(req)
  const user = await sessionUser(req)
  return user ? authData(user) : redirect('/login')
}

async function checkCredentials(req: VelaRequest): Promise<AuthData | Reply> {
  const { username, password } = req.params
  if (typeof username !== 'string' || typeof password !== 'string' || !username || !password)
    return redirect(LOGIN_FAILED)
  const user = await repo.getBy(User, { name: username })
  const matches = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH)
  return user?.password_hash && matches ? authData(user) : redirect(LOGIN_FAILED)
}

/** The development account (`admin` / `password`), created unless a user of that name exists. */
export async function ensureDemoAccount(): Promise<void> {
  const params = { name: 'admin', email: 'admin@example.com', password_hash: await hashPassword('password') }
  const cs = cast(User, null, params, ['name', 'email', 'password_hash']).validateRequired(['name', 'email'])
  const res = await repo.insert(cs, { onConflict: { target: ['name'], action: 'nothing' } })
  if (!res.ok) throw new Error(`could not create the demo account: ${JSON.stringify(res.error)}`)
}
