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
    ['/', notes.index, { methods: ['get'], responses: { 200: null, 302: null } }],
    ['/new', notes.new, { methods: ['get'], responses: { 200: null, 302: null } }],
    ['/', notes.create, { methods: ['post'], responses: { 302: null } }],
    ['/:id/edit', notes.edit, { methods: ['get'], responses: { 200: null, 302: null } }],
    ['/:id', notes.update, { methods: ['post'], responses: { 302: null } }],
    ['/:id/delete', notes.delete, { methods: ['post'], responses: { 302: null } }],
  ],
})
