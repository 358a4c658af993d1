// The telemetry plugin: route attributes on the request span and the name
// `<METHOD> <controller>:<action>`.
import { SpanKind, trace } from '@opentelemetry/api'
import { expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import type { VelaRequest } from '../server/request.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import { inject } from '../server/testing/index.ts'
import { describeModes } from '../test/support/modes.ts'
import { telemetryPlugin } from './plugin.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { finishedSpans, useInMemorySpans } from './test-support.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const products_controller = {
  show: (req: VelaRequest) => json({ id: req.bindings.id }),
  create: () => json({ created: true }, { status: 201 }),
}

const group: RouteGroup = {
  prefix: '/api',
  security: false,
  routes: [
    ['GET /products/:id', products_controller.show],
    ['POST /products', products_controller.create],
    ['GET /inline', () => json({})],
  ],
}
const config = {
  bootstrapApplication: 'shop',
  server: { streamHandlers: [telemetryStreamHandler, 'default' as const] },
  plugins: [telemetryPlugin()],
  routes: { 'src/routes/api.ts': group },
  controllers: { 'src/controllers/products_controller.ts': products_controller },
}

const exporter = useInMemorySpans()

describeModes('telemetry plugin', config, (t) => {
  const spanOf = async (url: string, method = 'GET') => {
    exporter.reset()
    const res = await t.request({ url, method })
    await res.text()
    const spans = (await finishedSpans(exporter, 1)).filter((s) => s.kind === SpanKind.SERVER)
    expect(spans).toHaveLength(1)
    return spans[0]!
  }

  it('renames the span <METHOD> <controller>:<action> and adds the route attributes', async () => {
    const span = await spanOf('/api/products/42')
    expect(span.name).toBe('GET products_controller:show')
    expect(span.attributes).toMatchObject({
      'vela.app': 'shop',
      'vela.controller': 'products_controller',
      'vela.action': 'show',
      'http.route': '/api/products/:id',
      'url.path': '/api/products/42',
      'http.response.status_code': 200,
    })
    const post = await spanOf('/api/products', 'POST')
    expect(post.name).toBe('POST products_controller:create')
    expect(post.attributes['http.response.status_code']).toBe(201)
  })

  it('inline handlers report the route file and anonymous', async () => {
    const span = await spanOf('/api/inline')
    expect(span.attributes['http.route']).toBe('/api/inline')
    expect(span.name).toBe(`GET ${span.attributes['vela.controller']}:anonymous`)
    expect(span.attributes['vela.controller']).toMatch(/^routes\//)
  })

  it('unrouted requests keep HTTP <METHOD> (plugins do not run for them)', async () => {
    const span = await spanOf('/api/nothing')
    expect(span.name).toBe('HTTP GET')
    expect(span.attributes['vela.controller']).toBeUndefined()
  })
})

it('without a recording span the plugin changes nothing and lets the request through', async () => {
  const app = createApp({ ...config, server: {} }, { env: {}, log: logs.log })
  const res = await inject(app, '/api/products/1')
  expect(res.status).toBe(200)
  expect(trace.getActiveSpan()).toBeUndefined()
  await res.text()
  expect(exporter.getFinishedSpans()).toEqual([])
})
