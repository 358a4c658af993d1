/**
 * Vela with the same three routes: the request plugin decodes the POST body, a security callback
 * checks the token. With BENCH_TELEMETRY=on (the telemetry bench) the app also lists vela/telemetry's
 * stream handler and plugin (telemetry-setup.ts).
 */
import { createApp, json, listen, requestPlugin, status } from '../../server/index.ts'
import type { PluginEntry, RouteGroup } from '../../server/index.ts'
import { telemetryPlugin, telemetryStreamHandler } from '../../telemetry/index.ts'
import { TOKEN, products } from './fixtures.ts'
import { setupBenchTelemetry, telemetryOn as telemetry } from './telemetry-setup.ts'

const traced: PluginEntry[] = telemetry ? [['pre_request', telemetryPlugin, {}]] : []

let nextId = 1000
const open: RouteGroup = {
  prefix: '',
  security: false,
  plugins: traced,
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
  plugins: [...traced, ['pre_request', requestPlugin, { decodeJsonBody: true }]],
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
if (telemetry) await setupBenchTelemetry()
const app = createApp({
  bootstrapApplication: 'bench',
  server: telemetry ? { streamHandlers: [telemetryStreamHandler, 'default'] } : {},
  routes: { bench: [open, writes] },
})
await listen(app, { port: Number(process.env.PORT), host: '127.0.0.1' })
