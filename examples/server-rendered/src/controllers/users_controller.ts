import { hashPassword, redirect, renewSession, view } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson } from 'vela/dbl'
import { flash } from '../flash.ts'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'

/** GET /signup: the form (src/views/signup.liquid). */
function newAction() {
  return view('signup', { form: {}, errors: {} })
}

/**
 * POST /signup: the account, then signed in and off to the bookmarks with a welcome; or the form
 * again with its errors (422), the email kept and the password not.
 */
async function create(req: VelaRequest) {
  const cs = cast(User, null, req.params, ['email', 'password'])
    .validateRequired(['email', 'password'])
    .validateFormat('email', /^[^\s@]+@[^\s@]+$/)
    .validateLength('password', { min: 8, max: 200 })
    .validateConfirmation('password', { message: 'does not match' })
    .uniqueConstraint('email')
  // Hashed only once the rest is valid: a refused form costs no scrypt work.
  const password = cs.valid ? String(cs.changes.password) : undefined
  const res = await repo.insert(password ? cs.putChange('password_hash', await hashPassword(password)) : cs)
  if (!res.ok)
    return view('signup', { form: { email: req.params.email }, errors: errorsToJson(res.error) }, { status: 422 })
  // A new session for the new user: the cookie from before signing up opens nothing.
  renewSession(req, { user_id: res.value.id })
  flash(req, `Welcome, ${res.value.email}! Add your first bookmark below.`)
  return redirect('/bookmarks', { status: 303 })
}

export { create, newAction as new }
