/**
 * The playground bench's baseline (bench/telemetry/playground.ts): bare node:http and a `pg` pool
 * answering what the playground answers on GET /heartbeat (200, no body) and GET
 * /api/products/:id (the row the playground's `Repo.get` reads, as the same JSON), nothing else.
 */
import http from 'node:http'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const SQL = 'select "id", "name", "price", "description", "inserted_at", "updated_at" from "products" where "id" = $1'
const PRODUCT = /^\/api\/products\/(\d+)$/

http
  .createServer((req, res) => {
    if (req.url === '/heartbeat') return res.writeHead(200, { 'content-length': '0' }).end()
    const id = PRODUCT.exec(req.url ?? '')?.[1]
    if (id === undefined) return res.writeHead(404).end()
    pool.query(SQL, [id]).then(
      ({ rows }) => {
        const p = rows[0] as { id: string; name: string; price: number; description: string | null } | undefined
        if (!p) return res.writeHead(404).end()
        const body = JSON.stringify({ id: Number(p.id), name: p.name, price: p.price, description: p.description })
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
      },
      () => res.writeHead(500).end(),
    )
  })
  .listen(Number(process.env.PORT), '127.0.0.1')
