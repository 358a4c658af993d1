/** The notes pages: HTML forms for signed-in users; anyone else is sent to /login. */
import { defineRoutes } from 'vela'
import { sessionSecurity } from '../auth/session-security.ts'
import * as notes from '../controllers/notes_controller.ts'
import { browser } from '../plugins/pipelines.ts'

export default defineRoutes({
  prefix: '/notes',
  security: sessionSecurity,
  plugins: browser,
  routes: [
    ['GET /', notes.index, { responses: { 200: null, 302: null } }],
    ['GET /new', notes.new, { responses: { 200: null, 302: null } }],
    ['POST /', notes.create, { responses: { 302: null } }],
    ['GET /:id/edit', notes.edit, { responses: { 200: null, 302: null } }],
    ['POST /:id', notes.update, { responses: { 302: null } }],
    ['POST /:id/delete', notes.delete, { responses: { 302: null } }],
  ],
})
