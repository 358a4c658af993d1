import { defineRoutes, requestPlugin, status } from 'vela'
import * as subscribers from '../controllers/subscribers_controller.ts'

export default defineRoutes([
  {
    prefix: '',
    security: false,
    // For load balancers and uptime checks: 200, no body.
    routes: [['GET /heartbeat', () => status(200)]],
  },
  {
    prefix: '/api',
    security: false,
    plugins: [requestPlugin({ json: true })],
    routes: [
      ['POST /subscribers', subscribers.create],
      ['GET /subscribers/:id', subscribers.show],
    ],
  },
])
