import { byAddress, defineRoutes, rateLimitPlugin, requestPlugin } from 'vela'
import * as accounts from '../controllers/accounts_controller.ts'

export default defineRoutes([
  {
    // Open to anyone: making an account.
    prefix: '/api',
    security: false,
    plugins: [requestPlugin({ json: true })],
    routes: [['POST /users', accounts.signup, { validate: { body: 'credentials' }, responses: { 201: 'user' } }]],
  },
  {
    // Logging in: a client address gets LOGIN_RATE_LIMIT attempts a minute (default 5), then a
    // 429 with Retry-After until the minute is over. The limiter runs first, so even a refused
    // attempt counts.
    prefix: '/api',
    security: false,
    plugins: [
      rateLimitPlugin({ key: byAddress, maxRequests: Number(process.env.LOGIN_RATE_LIMIT) || 5, windowMs: 60_000 }),
      requestPlugin({ json: true }),
    ],
    routes: [
      ['POST /login', accounts.login, { validate: { body: 'credentials' }, responses: { 201: 'token', 401: 'error' } }],
    ],
  },
])
