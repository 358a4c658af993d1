/**
 * The login form, the login itself and the logout (spec §4.3's `GET /login` and `POST /`).
 * The credentials are checked by the group's security callback (`username_password`,
 * ../auth/login.ts) before `create` runs: `create` only sees a verified user in `req.authData`.
 */
import { redirect, view } from 'vela'
import type { VelaRequest } from 'vela'
import { signedIn } from '../auth/login.ts'

/** GET /login: the form (`login.liquid`); `?error=1` after a failed attempt. */
function newAction(req: VelaRequest) {
  return view({ error: req.query.error !== undefined }, { view: 'login' })
}

/** POST /: the user is verified; keep it in the session and go to the notes. */
function create(req: VelaRequest) {
  const username = signedIn(req)
  if (!username) return redirect('/login?error=1')
  const session = req.session!
  session.username = username
  // A new CSRF secret for the signed-in session: a token a page showed before the login (possibly
  // planted by someone else, "login CSRF") is not valid afterwards.
  delete session._csrf_token
  return redirect('/notes')
}

/** POST /logout: forget the session (its cookie is removed), back to the login form. */
function deleteAction(req: VelaRequest) {
  req.session = {}
  return redirect('/login')
}

export { create, deleteAction as delete, newAction as new }
