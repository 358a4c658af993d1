// WebSocket handshakes are HTTP requests too, so they are traced and counted: the telemetry stream
// handler traces the upgrade decision through `wrapUpgrade`. An accepted upgrade is a span with
// status 101 that ends at the handshake; a refusal has the refusal's status; both are counted in
// the HTTP metrics. Real server, real `ws` client, in-memory spans.
import { SpanKind } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createApp } from '../server/app/create-app.ts'
import type { VelaRequest } from '../server/request.ts'
import type { TestServer } from '../server/testing/index.ts'
import { startTestServer } from '../server/testing/index.ts'
import { defineWebSocket } from '../server/websocket/define.ts'
import { telemetryPlugin } from './plugin.ts'
import { activeTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { finishedSpans, useInMemorySpans } from './test-support.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const exporter = useInMemorySpans()

const echo = defineWebSocket({ message: (peer, message) => void peer.send(`echo: ${message.text()}`) })
const app = createApp(
  {
    bootstrapApplication: 'ws-shop',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: {
      r: [
        {
          prefix: '/live',
          security: (req: VelaRequest) => req.query.token === 'ok',
          plugins: [telemetryPlugin()],
          routes: [['/:room', echo, { protocol: 'ws' }]],
        },
      ],
    },
  },
  { log: logs.log },
)

let server: TestServer
let base = ''
beforeAll(async () => {
  server = await startTestServer(app)
  base = server.url.replace('http', 'ws')
})
afterAll(() => server.close({ timeoutMs: 1000 }))

const serverSpans = async (n: number): Promise<ReadableSpan[]> =>
  (await finishedSpans(exporter, n)).filter((s) => s.kind === SpanKind.SERVER)

it('an accepted upgrade is a server span with status 101, named after the route, ended at the handshake', async () => {
  const ws = new WebSocket(`${base}/live/lobby?token=ok`, { headers: { 'user-agent': 'ws-test' } })
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
  // The span is finished while the socket is still open.
  const [span, ...more] = await serverSpans(1)
  expect(more).toEqual([])
  ws.send('hi')
  expect(String(await new Promise((resolve) => ws.once('message', resolve)))).toBe('echo: hi')
  ws.close()
  // An inline handler reports its route module and `anonymous` (the telemetry plugin renamed the span).
  expect(span!.name).toBe('GET routes/r:anonymous')
  expect(span!.attributes).toMatchObject({
    'http.request.method': 'GET',
    'url.path': '/live/lobby',
    'http.response.status_code': 101,
    'http.route': '/live/:room',
    'vela.app': 'ws-shop',
    'user_agent.original': 'ws-test',
  })
  expect(span!.status.code).toBe(0)
})

it('a refused upgrade is a span with the refusal status; both are counted in the HTTP metrics', async () => {
  exporter.reset()
  const ws = new WebSocket(`${base}/live/lobby`)
  const status = await new Promise<number>((resolve) => {
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.once('error', () => resolve(-1))
  })
  expect(status).toBe(401)
  const [span] = await serverSpans(1)
  expect(span!.attributes['http.response.status_code']).toBe(401)

  const text = await activeTelemetry()!.instruments.registry.metrics()
  const port = new URL(server.url).port
  const count = (code: number) =>
    Number(
      new RegExp(
        `^http_server_request_duration_seconds_count\\{method="GET",scheme="http",server_address="127.0.0.1",server_port="${port}",response_status_code="${code}"[^}]*\\} (\\d+)$`,
        'm',
      ).exec(text)?.[1],
    )
  expect(count(101)).toBe(1)
  expect(count(401)).toBe(1)
  // The refusal's body was counted as it was written on the socket.
  const bodyBytes = /^http_server_response_body_size_bytes_sum\{[^}]*response_status_code="401"[^}]*\} (\d+)$/m.exec(
    text,
  )?.[1]
  expect(Number(bodyBytes)).toBe(JSON.stringify({ error: 'Unauthorized' }).length)
})
