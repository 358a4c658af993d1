/**
 * The public routes (security false): no session, no cookies, cheap for probes.
 * `/docs/[...]` serves the API explorer and spec that `vela openapi --output
 * priv/assets/openapi.json` (and `vela release`) write into priv/assets.
 */
import { defineRoutes, staticDir } from 'vela'
import * as echo from '../controllers/echo_controller.ts'
import * as health from '../controllers/health_controller.ts'
import * as rooms from '../controllers/rooms_controller.ts'

export default defineRoutes([
  {
    prefix: '',
    security: false,
    plugins: [],
    routes: [
      ['GET /', health.home, { responses: { 302: null } }],
      ['GET /heartbeat', health.heartbeat],
      ['/ws', echo.socket, { protocol: 'ws' }],
      ['/ws/rooms/:room', rooms.socket, { protocol: 'ws' }],
      ['/docs/[...]', staticDir('priv/assets')],
      // The pages' stylesheet (a file, so the Content-Security-Policy needs no 'unsafe-inline').
      ['/static/[...]', staticDir('priv/static')],
    ],
  },
  {
    prefix: '/api',
    security: false,
    plugins: [],
    routes: [['GET /info', health.info, { responses: { 200: 'app_info' } }]],
  },
])
