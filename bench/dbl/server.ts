/**
 * One benchmark server process for bench/dbl.ts. BENCH_MODE picks the data path, the HTTP layer
 * (bare node:http) is the same for all:
 *   pg / pglite            the statements run directly on a pg Pool / a PGlite instance
 *   repo-pg / repo-pglite  the same operations through defineRepo (cast + validate + Repo.insert, Repo.get)
 * Routes: GET /products/:id and POST /products (JSON body). Listens on PORT (or a free port) and prints `listening <port>` when ready.
 */
import http from 'node:http'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { cast } from '../../dbl/changeset.ts'
import { defineRepo } from '../../dbl/repo.ts'
import { defineSchema, timestamps } from '../../dbl/schema.ts'
import { validateRequired } from '../../dbl/validations.ts'
import { DDL, SEED } from './fixtures.ts'
import { jsonReplies } from './json-reply.ts'

const mode = process.env.BENCH_MODE as 'pg' | 'pglite' | 'repo-pg' | 'repo-pglite'
const url = process.env.BENCH_PG_URL!
const POOL = 10

const Product = defineSchema({
  table: 'products',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    price: { type: 'integer', nullable: false },
    description: 'text',
    ...timestamps(),
  },
})

// The statements the repository sends for get and insert, written out for the bare drivers.
const GET_SQL =
  'select "id", "name", "price", "description", "inserted_at", "updated_at" from "products" where "id" = $1'
const INSERT_SQL =
  'insert into "products" ("description", "inserted_at", "name", "price", "updated_at") values ($1, $2, $3, $4, $5) returning "id", "name", "price", "description", "inserted_at", "updated_at"'

type Row = Record<string, unknown>
interface Ops {
  get(id: string): Promise<Row | undefined>
  insert(body: Record<string, unknown>): Promise<{ status: number; body: unknown }>
}

async function bare(run: (sql: string, params: unknown[]) => Promise<Row[]>): Promise<Ops> {
  return {
    get: async (id) => (await run(GET_SQL, [id]))[0],
    async insert(b) {
      const now = new Date()
      const rows = await run(INSERT_SQL, [b.description ?? null, now, b.name, b.price, now])
      return { status: 201, body: rows[0] }
    },
  }
}

async function opsFor(): Promise<Ops> {
  if (mode === 'pg') {
    const pool = new pg.Pool({ connectionString: url, max: POOL })
    return bare(async (sql, params) => (await pool.query(sql, params)).rows)
  }
  if (mode === 'pglite') {
    const db = await PGlite.create()
    await db.exec(DDL)
    await db.exec(SEED)
    return bare(async (sql, params) => (await db.query<Row>(sql, params)).rows)
  }
  const repo = defineRepo(mode === 'repo-pg' ? { url, poolSize: POOL } : { url: 'memory:' })
  await repo.start()
  if (mode === 'repo-pglite') {
    await repo.query(DDL)
    await repo.query(SEED)
  }
  return {
    async get(id) {
      return repo.get(Product, id)
    },
    async insert(b) {
      const cs = validateRequired(cast(Product, {}, b, ['name', 'price', 'description']), ['name', 'price'])
      const r = await repo.insert(cs)
      return r.ok ? { status: 201, body: r.value } : { status: 422, body: { error: 'invalid' } }
    },
  }
}

const ops = await opsFor()

const server = http.createServer((req, res) => {
  const { reply, fail } = jsonReplies(res)
  if (req.method === 'GET' && req.url?.startsWith('/products/')) {
    ops.get(req.url.slice(10)).then((row) => (row ? reply(200, row) : reply(404, { error: 'not found' })), fail)
    return
  }
  if (req.method === 'POST' && req.url === '/products') {
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (data += c))
    req.on('end', () => ops.insert(JSON.parse(data)).then((r) => reply(r.status, r.body), fail))
    return
  }
  reply(404, { error: 'no route' })
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as { port: number }).port}`)
})
