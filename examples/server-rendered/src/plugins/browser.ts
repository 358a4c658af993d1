import { csrfPlugin, requestPlugin, sessionPlugin } from 'vela'
import type { PluginEntry } from 'vela'

/**
 * The plugins of every page with a form, in this order: the form body decoded, the session read
 * from its cookie (sealed with VELA_SESSION_SECRET; `vite` and the tests make one up), and the
 * CSRF check: a POST without the session's token (`csrf_token` in the views) is a 403 and no
 * handler runs.
 */
export const browser: PluginEntry[] = [
  requestPlugin({ urlencoded: true }),
  sessionPlugin({ cookieName: 'bookmarks_session' }),
  csrfPlugin(),
]
