/** Vela with the same three routes: the request plugin decodes the POST body, a security callback checks the token. */
import { createApp, json, listen, requestPlugin, status } from '../../server/index.ts'
import type { RouteGroup } from '../../server/index.ts'
import { TOKEN, products } from './fixtures.ts'

let nextId = 1000
const open: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['/heartbeat', () => status(200), { methods: ['get'] }],
    [
      '/api/products/:id',
      (req) => {
        const p = products.get(Number(req.bindings.id))
        return p ? json(p) : status(404, {}, { error: 'not found' })
      },
      { methods: ['get'] },
    ],
  ],
}
const writes: RouteGroup = {
  prefix: '/api',
  security: (req) => (req.header('authorization') === TOKEN ? { user: 'bench' } : false),
  plugins: [['pre_request', requestPlugin, { decodeJsonBody: true }]],
  routes: [
    [
      '/products',
      (req) => {
        const body = req.params as { name: string; price: number }
        return json(201, {}, { id: nextId++, name: body.name, price: body.price, description: null })
      },
      { methods: ['post'] },
    ],
  ],
}
const app = createApp({ bootstrapApplication: 'bench', routes: { bench: [open, writes] } })
await listen(app, { port: Number(process.env.PORT), host: '127.0.0.1' })
