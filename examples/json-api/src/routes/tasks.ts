import { defineRoutes, requestPlugin } from 'vela'
import { bearer } from '../auth/bearer.ts'
import * as accounts from '../controllers/accounts_controller.ts'
import * as tasks from '../controllers/tasks_controller.ts'

// Every route here needs `Authorization: Bearer <token>` (../auth/bearer.ts): without a valid
// token the answer is a 401 before any handler runs. `validate` names what each route accepts
// (priv/schemas/*.json): anything else is a 422 `{ errors }`, and `:id` and the query's values
// reach the handlers as numbers and booleans.
export default defineRoutes({
  prefix: '/api',
  security: bearer,
  plugins: [requestPlugin({ json: true })],
  routes: [
    ['GET /me', accounts.me, { responses: { 200: 'user' } }],
    ['DELETE /session', accounts.logout, { responses: { 204: null } }],
    ['GET /tasks', tasks.index, { validate: { query: 'task_filter' } }],
    ['POST /tasks', tasks.create, { validate: { body: 'task_new' } }],
    ['GET /tasks/:id', tasks.show, { validate: { params: 'task_ref' } }],
    ['PATCH /tasks/:id', tasks.update, { validate: { params: 'task_ref', body: 'task_patch' } }],
    ['DELETE /tasks/:id', tasks.remove, { validate: { params: 'task_ref' } }],
  ],
})
