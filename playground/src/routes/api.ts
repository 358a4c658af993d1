import { defineRoutes, requestPlugin } from 'vela'
import * as products from '../controllers/products_controller.ts'

export default defineRoutes({
  prefix: '/api',
  security: false,
  plugins: [['pre_request', requestPlugin, { decodeJsonBody: true }]],
  routes: [
    ['/products', products.index, { methods: ['get'] }],
    ['/products/:id', products.show, { methods: ['get'] }],
    ['/products', products.create, { methods: ['post'], schema: 'product' }],
    ['/products/:id', products.update, { methods: ['put'] }],
    ['/products/:id', products.remove, { methods: ['delete'] }],
  ],
})
