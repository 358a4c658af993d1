/**
 * The security of the signed-in pages, the login POST and the logouts: `username_password`
 * (./login.ts) decides, and the OpenAPI document names what it reads, the session cookie (the
 * login POST needs it too: its CSRF token belongs to the session).
 */
import type { SecurityWithScheme } from 'vela'
import { username_password } from './login.ts'

export const sessionSecurity: SecurityWithScheme = {
  scheme: {
    type: 'apiKey',
    in: 'cookie',
    name: 'playground_session',
    description: 'The session cookie the login form starts',
  },
  name: 'sessionCookie',
  check: username_password,
}
