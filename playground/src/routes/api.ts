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
    ['/users', users.index, { methods: ['get'] }],
    ['/users/:id', users.show, { methods: ['get'], responses: { 400: 'error' } }],
    ['/users', users.create, { methods: ['post'], responses: { 422: 'error' } }],
    [
      '/products',
      products.index,
      { methods: ['get'], validate: { query: 'product_page' }, responses: { 200: 'product_list' } },
    ],
    ['/products/:id', products.show, { methods: ['get'], responses: { 400: 'error' } }],
    [
      '/products',
      products.create,
      { methods: ['post'], validate: { body: 'product' }, responses: { 422: 'api_errors' } },
    ],
    [
      '/products/:id',
      products.update,
      { methods: ['put'], validate: { body: 'product_patch' }, responses: { 422: 'api_errors' } },
    ],
    ['/products/:id', products.delete, { methods: ['delete'], responses: { 400: 'error' } }],
    ['/notes', notes.index, { methods: ['get'], schema: 'note', responses: { 200: 'note_list' } }],
    ['/notes/:id', notes.show, { methods: ['get'], schema: 'note' }],
    [
      '/notes',
      notes.create,
      { methods: ['post'], schema: 'note', validate: { body: 'note_new' }, responses: { 422: 'api_errors' } },
    ],
    [
      '/notes/:id',
      notes.update,
      { methods: ['put'], schema: 'note', validate: { body: 'note_patch' }, responses: { 422: 'api_errors' } },
    ],
    ['/notes/:id', notes.delete, { methods: ['delete'], schema: 'note' }],
  ],
})
