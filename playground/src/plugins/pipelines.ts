/**
 * The plugin lists of the route groups. A group's `plugins` replaces the global list (the app has
 * none), so each group says exactly what runs for it:
 *
 * - `browser`, the HTML pages: form bodies (`urlencoded`), the cookie session (sealed;
 *   its secret from VELA_SESSION_SECRET, generated per process in development) and CSRF tokens on
 *   every form (`csrf_token` in the views; POSTs without a valid one are a 403);
 * - `login`, the login POST, limited twice: per client address first, so even attempts refused
 *   later (CSRF) count (100 per minute; LOGIN_RATE_LIMIT changes the maximum), then `browser`,
 *   then per account: 10 attempts per 15 minutes at one username, from whatever addresses
 *   (LOGIN_ACCOUNT_RATE_LIMIT changes the maximum). The account limiter reads the form's
 *   `username`, so it comes after the request plugin that decodes the form; after CSRF too, so a
 *   forged cross-site login cannot use up someone's attempts. It counts every username asked
 *   for, existing or not, so its 429 says nothing about which accounts exist, and it sends no
 *   RateLimit headers (the address limit's are shown). Both count in Redis, shared by every
 *   instance, when REDIS_URL is set (../redis.ts), each under its own name in the store;
 * - `api`, the JSON API: CORS for any origin (preflights answered), JSON bodies, and a write
 *   without a body answered 422 `{ error }` (./body_required.ts). No session and no CSRF: the API
 *   trusts no cookie.
 *
 * Telemetry needs no entry here: the stream handler listed in app.ts names every request's span
 * after its route, in every group.
 */
import { byAddress, byField, corsPlugin, csrfPlugin, rateLimitPlugin, requestPlugin, sessionPlugin } from 'vela'
import type { PluginEntry } from 'vela'
import { rateLimitStore, sessionStore } from '../redis.ts'
import { bodyRequired } from './body_required.ts'

export const browser: PluginEntry[] = [
  requestPlugin({ urlencoded: true }),
  sessionPlugin({ cookieName: 'playground_session', store: sessionStore }),
  csrfPlugin(),
]

export const login: PluginEntry[] = [
  rateLimitPlugin({
    key: byAddress,
    maxRequests: Number(process.env.LOGIN_RATE_LIMIT) || 100,
    windowMs: 60_000,
    store: rateLimitStore,
  }),
  ...browser,
  rateLimitPlugin({
    key: byField('username'),
    maxRequests: Number(process.env.LOGIN_ACCOUNT_RATE_LIMIT) || 10,
    windowMs: 15 * 60_000,
    store: rateLimitStore,
    headers: false,
  }),
]

export const api: PluginEntry[] = [corsPlugin({ allowOrigins: '*' }), requestPlugin({ json: true }), bodyRequired()]
