/**
 * The login form, the login itself and the logouts (`GET /login`, `POST /`, `POST /logout`,
 * `POST /logout/everywhere`). The credentials are checked by the group's security callback
 * (`username_password`, ../auth/login.ts) before `create` runs: `create` only sees a verified
 * user in `req.authData`.
 */
import { redirect, view } from 'vela'
import type { VelaRequest } from 'vela'
import { signedIn } from '../auth/login.ts'
import { endAllSessions, startSession } from '../auth/sessions.ts'

/** GET /login: the form (`login.liquid`); `?error=1` after a failed attempt. */
function newAction(req: VelaRequest) {
  return view('login', { error: req.query.error !== undefined })
}

/**
 * POST /: the user is verified; a new session holds it, and off to the notes. New, not the
 * visitor's session with a user added: the cookie from before the login (possibly planted by
 * someone else) opens nothing, and its CSRF token is not valid afterwards ("login CSRF").
 */
async function create(req: VelaRequest) {
  const user = signedIn(req)
  if (!user) return redirect('/login?error=1')
  await startSession(req, user.name)
  return redirect('/notes')
}

/** POST /logout: this session ends (its cookie is removed and, copied anywhere, opens nothing); back to the login form. */
function deleteAction(req: VelaRequest) {
  req.session = {}
  return redirect('/login')
}

/** POST /logout/everywhere: every session of the user ends, in every browser; back to the login form. */
async function delete_everywhere(req: VelaRequest) {
  const user = signedIn(req)
  if (user) await endAllSessions(user.name)
  req.session = {}
  return redirect('/login')
}

export { create, deleteAction as delete, delete_everywhere, newAction as new }
