/**
 * Logging in and out. The form (`GET /login`) is public; the login `POST /` and the logouts are
 * checked by `username_password` (../auth/login.ts): the credentials for the first, the session for
 * the others. `POST /logout` ends this session, `POST /logout/everywhere` every session of the
 * user. Only the login POST carries the rate limiter. The login form's fields are declared with
 * `validate` (priv/schemas/login.json); the security callback, which runs first, answers a form
 * without them with the same redirect as wrong credentials.
 */
import { defineRoutes } from 'vela'
import { sessionSecurity } from '../auth/session-security.ts'
import * as session from '../controllers/session_controller.ts'
import { browser, login } from '../plugins/pipelines.ts'

export default defineRoutes([
  { prefix: '', security: false, plugins: browser, routes: [['GET /login', session.new]] },
  {
    prefix: '',
    security: sessionSecurity,
    plugins: login,
    routes: [['POST /', session.create, { validate: { body: 'login' }, responses: { 302: null } }]],
  },
  {
    prefix: '',
    security: sessionSecurity,
    plugins: browser,
    routes: [
      ['POST /logout', session.delete, { responses: { 302: null } }],
      ['POST /logout/everywhere', session.delete_everywhere, { responses: { 302: null } }],
    ],
  },
])
