/**
 * Fastify with the same three routes (and the validated POST, with the same JSON Schema as Vela's): a second baseline. Fastify is imported dynamically so that
 * fastify-otel.ts can register OpenTelemetry's HTTP instrumentation before it loads.
 */
import { PRODUCT_SCHEMA, TOKEN, products } from './fixtures.ts'

const { default: Fastify } = await import('fastify')

let nextId = 1000
const app = Fastify({ logger: false })
// `BENCH_REQUEST_ID=1`: every reply carries the request's id, as Vela's do by default (Fastify
// makes `req.id` for every request anyway; sending it back is this hook, the idiomatic way).
if (process.env.BENCH_REQUEST_ID === '1')
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id)
    done()
  })
app.get('/heartbeat', async (_req, reply) => reply.code(200).send())
app.get<{ Params: { id: string } }>('/api/products/:id', async (req, reply) => {
  const p = products.get(Number(req.params.id))
  if (!p) return reply.code(404).send({ error: 'not found' })
  return p
})
app.post<{ Body: { name: string; price: number } }>(
  '/api/products',
  {
    onRequest: async (req, reply) => {
      if (req.headers.authorization !== TOKEN) await reply.code(401).send({ error: 'unauthorized' })
    },
  },
  async (req, reply) =>
    reply.code(201).send({ id: nextId++, name: req.body.name, price: req.body.price, description: null }),
)
// Validated by the route's JSON Schema (Fastify compiles it with Ajv): the runtime bench's validation row.
app.post<{ Body: { name: string; price: number } }>(
  '/api/products/checked',
  { schema: { body: PRODUCT_SCHEMA } },
  async (req, reply) =>
    reply.code(201).send({ id: nextId++, name: req.body.name, price: req.body.price, description: null }),
)
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
