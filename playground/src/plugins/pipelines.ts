/**
 * The plugin lists of the route groups. A group's `plugins` replaces the global list (the app has
 * none), so each group says exactly what runs for it:
 *
 * - `browser`, the HTML pages: form bodies (`readUrlencodedBody`), the cookie session (sealed;
 *   its secret from VELA_SESSION_SECRET, generated per process in development) and CSRF tokens on
 *   every form (`csrf_token` in the views; POSTs without a valid one are a 403);
 * - `login`, the login POST: spec §8's example rate limiter first, so even refused attempts count
 *   (100 per minute per client address by default; LOGIN_RATE_LIMIT changes the maximum; counted
 *   in Redis, shared by every instance, when REDIS_URL is set: ../redis.ts), then `browser`;
 * - `api`, the JSON API: CORS for any origin (preflights answered), JSON bodies. No session and no
 *   CSRF: the API trusts no cookie.
 *
 * Telemetry needs no entry here: the stream handler listed in app.ts names every request's span
 * after its route, in every group.
 */
import { corsPlugin, csrfPlugin, rateLimitPlugin, requestPlugin, sessionPlugins } from 'vela'
import type { PluginEntry } from 'vela'
import { rateLimitStore } from '../redis.ts'

export const browser: PluginEntry[] = [
  ['pre_request', requestPlugin, { readUrlencodedBody: true }],
  ...sessionPlugins({ cookieName: 'playground_session' }),
  ['pre_request', csrfPlugin, {}],
]

export const login: PluginEntry[] = [
  ['pre_request', rateLimitPlugin, { maxRequests: Number(process.env.LOGIN_RATE_LIMIT) || 100, windowMs: 60_000, store: rateLimitStore }],
  ...browser,
]

export const api: PluginEntry[] = [
  ['pre_request', corsPlugin, { allowOrigins: '*' }],
  ['pre_request', requestPlugin, { decodeJsonBody: true }],
]
