import { defineRoutes, status, staticDir } from 'vela'
import { signedIn } from '../auth/signed-in.ts'
import * as bookmarks from '../controllers/bookmarks_controller.ts'
import * as session from '../controllers/session_controller.ts'
import * as users from '../controllers/users_controller.ts'
import { browser } from '../plugins/browser.ts'

export default defineRoutes([
  {
    // Files and probes: no session, no cookies.
    prefix: '',
    security: false,
    plugins: [],
    routes: [
      ['GET /heartbeat', () => status(200)],
      // The stylesheet: a file, so the pages pass the Content-Security-Policy (no inline style).
      ['/static/[...]', staticDir('priv/static')],
    ],
  },
  {
    // The pages anyone may see: signing up and logging in.
    prefix: '',
    security: false,
    plugins: browser,
    routes: [
      ['GET /', session.home],
      ['GET /signup', users.new],
      ['POST /signup', users.create],
      ['GET /login', session.new],
      ['POST /login', session.create],
    ],
  },
  {
    // The signed-in pages: without a session, a redirect to /login (../auth/signed-in.ts).
    prefix: '',
    security: signedIn,
    plugins: browser,
    routes: [
      ['GET /bookmarks', bookmarks.index],
      ['POST /bookmarks', bookmarks.create],
      ['POST /bookmarks/:id/delete', bookmarks.delete],
      ['POST /logout', session.delete],
    ],
  },
])
