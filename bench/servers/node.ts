/** Bare node:http: the ceiling every framework is a fraction of. */
import http from 'node:http'
import { TOKEN, products } from './fixtures.ts'

let nextId = 1000
http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/heartbeat') return res.writeHead(200).end()
    const m = req.method === 'GET' && /^\/api\/products\/(\d+)$/.exec(req.url ?? '')
    if (m) {
      const p = products.get(Number(m[1]))
      if (!p) return res.writeHead(404).end()
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(p))
    }
    if (req.method === 'POST' && req.url === '/api/products') {
      if (req.headers.authorization !== TOKEN) return res.writeHead(401).end()
      const chunks: Buffer[] = []
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { name: string; price: number }
          res
            .writeHead(201, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: nextId++, name: body.name, price: body.price, description: null }))
        })
      return
    }
    res.writeHead(404).end()
  })
  .listen(Number(process.env.PORT), '127.0.0.1')
