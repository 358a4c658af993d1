/** The JSON API (spec §4.3): open (security false), CORS for any origin, JSON bodies. */
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
    ['/products', products.index, { methods: ['get'], responses: { 200: 'product_list', 400: 'error' } }],
    ['/products/:id', products.show, { methods: ['get'], responses: { 400: 'error' } }],
    ['/products', products.create, { methods: ['post'], responses: { 422: 'product_errors' } }],
    ['/products/:id', products.update, { methods: ['put'], responses: { 422: 'product_errors' } }],
    ['/products/:id', products.delete, { methods: ['delete'], responses: { 400: 'error' } }],
    ['/notes', notes.index, { methods: ['get'] }],
    ['/notes/:id', notes.show, { methods: ['get'] }],
    ['/notes', notes.create, { methods: ['post'] }],
    ['/notes/:id', notes.update, { methods: ['put'] }],
    ['/notes/:id', notes.delete, { methods: ['delete'] }],
  ],
})
