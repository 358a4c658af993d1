/**
 * Fastify with the same three routes: a second baseline. With BENCH_TELEMETRY=on (the telemetry
 * bench) it is traced the way Fastify apps usually are: OpenTelemetry's HTTP instrumentation (a
 * server span per request, the duration histogram on the OTel meter), on the same SDK set-up.
 */
import { TOKEN, products } from './fixtures.ts'
import { setupBenchTelemetry, telemetryOn } from './telemetry-setup.ts'

if (telemetryOn) {
  await setupBenchTelemetry({ otelMetrics: true })
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation')
  const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http')
  registerInstrumentations({ instrumentations: [new HttpInstrumentation()] })
}
// Imported after the instrumentation is registered, so that its `require('node:http')` is patched.
const { default: Fastify } = await import('fastify')

let nextId = 1000
const app = Fastify({ logger: false })
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
  async (req, reply) => reply.code(201).send({ id: nextId++, name: req.body.name, price: req.body.price, description: null }),
)
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
