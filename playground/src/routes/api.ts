/**
 * The JSON API: open (security false), CORS for any origin, JSON bodies. What the products and
 * notes routes accept is declared with `validate` (priv/schemas/*.json): a request that does not
 * match is answered 422 `{ errors }` before the controller runs, and the list's `limit` and
 * `offset` reach it as integers. A write with no body at all is a 422 `{ error }` (the pipeline's
 * `bodyRequired`), hence `api_errors` for their 422. The notes routes' replies are notes
 * (`schema: 'note'`, which the OpenAPI document cannot guess from `notes_api_controller`; the
 * list is `note_list`, `{ notes }`).
 */
import { defineRoutes } from 'vela'
import * as notes from '../controllers/notes_api_controller.ts'
import * as products from '../controllers/products_controller.ts'
import * as users from '../controllers/users_controller.ts'
import { api } from '../plugins/pipelines.ts'

export default defineRoutes({
  prefix: '/api',
  security: false,
  plugins: api,
  routes: [
    ['GET /users', users.index],
    ['GET /users/:id', users.show, { responses: { 400: 'error' } }],
    ['POST /users', users.create, { responses: { 422: 'error' } }],
    ['GET /products', products.index, { validate: { query: 'product_page' }, responses: { 200: 'product_list' } }],
    ['GET /products/:id', products.show, { responses: { 400: 'error' } }],
    ['POST /products', products.create, { validate: { body: 'product' }, responses: { 422: 'api_errors' } }],
    ['PUT /products/:id', products.update, { validate: { body: 'product_patch' }, responses: { 422: 'api_errors' } }],
    ['DELETE /products/:id', products.delete, { responses: { 400: 'error' } }],
    ['GET /notes', notes.index, { schema: 'note', responses: { 200: 'note_list' } }],
    ['GET /notes/:id', notes.show, { schema: 'note' }],
    ['POST /notes', notes.create, { schema: 'note', validate: { body: 'note_new' }, responses: { 422: 'api_errors' } }],
    [
      'PUT /notes/:id',
      notes.update,
      { schema: 'note', validate: { body: 'note_patch' }, responses: { 422: 'api_errors' } },
    ],
    ['DELETE /notes/:id', notes.delete, { schema: 'note' }],
  ],
})
