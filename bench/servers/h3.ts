/** Bare h3 on srvx: the baseline Vela is measured against. */
import { H3, HTTPError, serve } from 'h3'
import { TOKEN, products } from './fixtures.ts'

let nextId = 1000
const app = new H3()
  .get('/heartbeat', () => null)
  .get('/api/products/:id', (event) => {
    const p = products.get(Number(event.context.params!.id))
    if (!p) throw new HTTPError({ status: 404 })
    return p
  })
  .post('/api/products', async (event) => {
    if (event.req.headers.get('authorization') !== TOKEN) throw new HTTPError({ status: 401 })
    const body = (await event.req.json()) as { name: string; price: number }
    event.res.status = 201
    return { id: nextId++, name: body.name, price: body.price, description: null }
  })
serve(app, { port: Number(process.env.PORT), silent: true, gracefulShutdown: false })
