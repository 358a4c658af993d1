import { defineRoutes, redirect, requestPlugin, staticDir, status } from 'vela'
import * as notes from '../controllers/notes_controller.ts'

export default defineRoutes([
  {
    // HTML pages: the form posts application/x-www-form-urlencoded.
    prefix: '',
    security: false,
    plugins: [requestPlugin({ urlencoded: true })],
    routes: [
      ['GET /', () => redirect('/notes')],
      ['GET /notes', notes.index],
      ['POST /notes', notes.createFromForm],
      // For load balancers and uptime checks: 200, no body.
      ['GET /heartbeat', () => status(200)],
      // The API explorer and openapi.json, written by `vite build` (or `npx vela openapi --output
      // priv/assets/openapi.json`) from priv/schemas: /docs/swagger.html.
      ['/docs/[...]', staticDir('priv/assets')],
      // Stylesheets and images of the pages.
      ['/static/[...]', staticDir('priv/static')],
    ],
  },
  {
    // The JSON API. `validate` names what each route accepts (priv/schemas/*.json): a request that
    // does not match is answered 422 { errors } before the controller runs; `limit` and `offset`
    // reach it as integers.
    prefix: '/api',
    security: false,
    plugins: [requestPlugin({ json: true })],
    routes: [
      ['GET /notes', notes.list, { validate: { query: 'note_page' } }],
      ['POST /notes', notes.create, { validate: { body: 'note' } }],
    ],
  },
])
