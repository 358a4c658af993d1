import { defineRoutes, status, staticDir } from 'vela'

export default defineRoutes({
  prefix: '',
  security: false,
  routes: [
    // For load balancers and uptime checks: 200, no body.
    ['GET /heartbeat', () => status(200)],
    // The API explorer and openapi.json, written by `vite build` from the routes and
    // priv/schemas: /docs/swagger.html.
    ['/docs/[...]', staticDir('priv/assets')],
  ],
})
