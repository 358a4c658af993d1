// Span names by design: the stream handler names every routed request's span after its route
// (`<METHOD> <controller>:<action>`, vela.* and http.route) from the route the runtime records,
// in every group, whether the group inherits the global plugins or replaces them, and with no
// telemetry plugin anywhere. WebSocket handshakes too. Both modes (in-process and over HTTP).
import { SpanKind } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { AppConfig } from '../server/app/config.ts'
import { createApp } from '../server/app/create-app.ts'
import { requestPlugin } from '../server/plugins/request.ts'
import { corsPlugin } from '../server/plugins/cors.ts'
import { json, status } from '../server/replies.ts'
import type { TestServer } from '../server/testing/index.ts'
import { inject, startTestServer } from '../server/testing/index.ts'
import { defineWebSocket } from '../server/websocket/define.ts'
import { describeModes } from '../test/support/modes.ts'
import { telemetryPlugin } from './plugin.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { finishedSpans, useInMemorySpans } from './test-support.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const exporter = useInMemorySpans()

const notes_controller = { index: () => json({ notes: [] }), create: () => status(201) }
const chat_controller = { socket: defineWebSocket({ message: (peer, m) => void peer.send(m.text()) }) }

const config: AppConfig = {
  bootstrapApplication: 'notes-app',
  server: { streamHandlers: [telemetryStreamHandler, 'default'] },
  // A global list the /api group replaces: the span names must not depend on it.
  plugins: [corsPlugin({ allowOrigins: '*' })],
  routes: {
    'src/routes/app.ts': [
      { prefix: '/notes', security: false, routes: [['GET /', notes_controller.index]] },
      {
        prefix: '/api',
        security: false,
        plugins: [requestPlugin({ json: true })],
        routes: [['POST /notes', notes_controller.create]],
      },
      { prefix: '', security: false, plugins: [], routes: [['/chat', chat_controller.socket, { protocol: 'ws' }]] },
    ],
  },
  controllers: {
    'src/controllers/notes_controller.ts': notes_controller,
    'src/controllers/chat_controller.ts': chat_controller,
  },
}

const serverSpan = async (): Promise<ReadableSpan> => {
  const spans = (await finishedSpans(exporter, 1)).filter((s) => s.kind === SpanKind.SERVER)
  expect(spans).toHaveLength(1)
  return spans[0]!
}

describeModes('span names without a telemetry plugin', config, (t) => {
  it('a group inheriting the global plugins: GET notes_controller:index', async () => {
    const res = await t.request('/notes/')
    expect(res.status).toBe(200)
    await res.text() // the span ends once the body has been sent
    const span = await serverSpan()
    expect(span.name).toBe('GET notes_controller:index')
    expect(span.attributes).toMatchObject({
      'vela.app': 'notes-app',
      'vela.controller': 'notes_controller',
      'vela.action': 'index',
      'http.route': '/notes',
    })
  })

  it('a group with its own plugin list: POST notes_controller:create', async () => {
    const res = await t.request({ url: '/api/notes', method: 'POST', body: { title: 'x' } })
    expect(res.status).toBe(201)
    await res.text()
    const span = await serverSpan()
    expect(span.name).toBe('POST notes_controller:create')
    expect(span.attributes).toMatchObject({ 'http.route': '/api/notes', 'http.response.status_code': 201 })
  })

  it('unrouted requests keep HTTP <METHOD> and no route attributes', async () => {
    const res = await t.request('/nowhere')
    expect(res.status).toBe(404)
    await res.text()
    const span = await serverSpan()
    expect(span.name).toBe('HTTP GET')
    expect(span.attributes['vela.controller']).toBeUndefined()
  })
})

it('with the telemetry plugin too, the names agree', async () => {
  const app = createApp({ ...config, plugins: [telemetryPlugin()] }, { env: {}, log: logs.log })
  await (await inject(app, '/notes/')).text()
  expect((await serverSpan()).name).toBe('GET notes_controller:index')
})

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(createApp(config, { env: {}, log: logs.log }))
})
afterAll(() => server.close({ timeoutMs: 1000 }))

it('a WebSocket handshake in a group without plugins is named after its route', async () => {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/chat`)
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
  ws.close()
  const span = await serverSpan()
  expect(span.name).toBe('GET chat_controller:socket')
  expect(span.attributes).toMatchObject({ 'http.route': '/chat', 'http.response.status_code': 101 })
})
