import { hashPassword, redirect, renewSession, view, verifyPassword } from 'vela'
import type { VelaRequest } from 'vela'
import { takeFlash } from '../flash.ts'
import { flash } from '../flash.ts'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'

/** Verified against when the email is unknown, so both failures take the same time. */
const NOBODY = await hashPassword('not the password of anyone')

/** GET /: the bookmarks for a signed-in visitor, the login form for anyone else. */
function home(req: VelaRequest) {
  return redirect(typeof req.session?.user_id === 'number' ? '/bookmarks' : '/login')
}

/** GET /login: the form, with the message a redirect left (a failed attempt, a logout). */
function newAction(req: VelaRequest) {
  return view('login', { flash: takeFlash(req) })
}

/**
 * POST /login: a new session holding the user, and off to the bookmarks. New rather than the
 * visitor's session with a user added: a cookie planted before the login opens nothing after it.
 * A wrong email or password: back to the form, with the same message whichever it was.
 */
async function create(req: VelaRequest) {
  const { email, password } = req.params
  const user = typeof email === 'string' ? await repo.getBy(User, { email }) : undefined
  const matches = await verifyPassword(typeof password === 'string' ? password : '', user?.password_hash ?? NOBODY)
  if (!user || !matches) {
    flash(req, 'Wrong email or password.', 'error')
    return redirect('/login', { status: 303 })
  }
  renewSession(req, { user_id: user.id })
  flash(req, 'Signed in.')
  return redirect('/bookmarks', { status: 303 })
}

/** POST /logout: this session ends (a copy of its cookie opens nothing); back to the login form. */
function deleteAction(req: VelaRequest) {
  renewSession(req, {})
  flash(req, 'Signed out.')
  return redirect('/login', { status: 303 })
}

export { create, deleteAction as delete, home, newAction as new }
