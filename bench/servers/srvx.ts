/**
 * A bare srvx fetch handler (the web Request/Response layer h3 and Vela run on, without a
 * framework): shows what the node:http → fetch adaptation itself costs.
 */
import { FastResponse, serve } from 'srvx/node'
import { TOKEN, products } from './fixtures.ts'

const json = { 'content-type': 'application/json; charset=utf-8' }
const byId = /^\/api\/products\/(\d+)$/
let nextId = 1000

serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  silent: true,
  gracefulShutdown: false,
  async fetch(req) {
    const path = new URL(req.url).pathname
    if (req.method === 'GET' && path === '/heartbeat')
      return new FastResponse(null, { headers: { 'content-length': '0' } })
    const m = req.method === 'GET' && byId.exec(path)
    if (m) {
      const p = products.get(Number(m[1]))
      return p ? new FastResponse(JSON.stringify(p), { headers: json }) : new FastResponse(null, { status: 404 })
    }
    if (req.method === 'POST' && path === '/api/products') {
      if (req.headers.get('authorization') !== TOKEN) return new FastResponse(null, { status: 401 })
      const body = (await req.json()) as { name: string; price: number }
      return new FastResponse(JSON.stringify({ id: nextId++, name: body.name, price: body.price, description: null }), {
        status: 201,
        headers: json,
      })
    }
    return new FastResponse(null, { status: 404 })
  },
})
