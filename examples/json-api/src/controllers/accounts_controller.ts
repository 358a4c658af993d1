import { hashPassword, json, status, verifyPassword } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson } from 'vela/dbl'
import { callerOf } from '../auth/bearer.ts'
import { issueToken, revokeToken } from '../auth/tokens.ts'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'

/** Verified against when the email is unknown, so both failures take the same time. */
const NOBODY = await hashPassword('not the password of anyone')

/**
 * POST /api/users `{ email, password }`: 201 `{ id, email }`, or 422 `{ errors }` (a blank or
 * malformed email, a password under 8 characters, an email already taken).
 */
export async function signup(req: VelaRequest) {
  const cs = cast(User, null, req.params, ['email', 'password'])
    .validateRequired(['email', 'password'])
    .validateFormat('email', /^[^\s@]+@[^\s@]+$/)
    .validateLength('password', { min: 8, max: 200 })
    .uniqueConstraint('email')
  // Hashed only once the rest is valid: a refused signup costs no scrypt work.
  const password = cs.valid ? String(cs.changes.password) : undefined
  const res = await repo.insert(password ? cs.putChange('password_hash', await hashPassword(password)) : cs)
  if (!res.ok) return status(422, { errors: errorsToJson(res.error) })
  return json({ id: res.value.id, email: res.value.email }, { status: 201 })
}

/** POST /api/login `{ email, password }`: 201 `{ token }`, or 401 whatever was wrong. */
export async function login(req: VelaRequest) {
  const { email, password } = req.params as { email: string; password: string }
  const user = await repo.getBy(User, { email })
  const matches = await verifyPassword(password, user?.password_hash ?? NOBODY)
  if (!user || !matches) return status(401, { error: 'wrong email or password' })
  return json({ token: await issueToken(user.id) }, { status: 201 })
}

/** GET /api/me: who the token belongs to. */
export function me(req: VelaRequest) {
  const { userId, email } = callerOf(req)
  return json({ id: userId, email })
}

/** DELETE /api/session: this token stops working. */
export async function logout(req: VelaRequest) {
  await revokeToken(callerOf(req).tokenId)
  return status(204)
}
