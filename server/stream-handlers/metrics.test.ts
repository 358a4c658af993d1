// Metrics hook (metricsStreamHandler): metricsCallback called once per finished request with
// status, body length actually sent, hrtime bounds and the merged user data of plugins.
import { gzipSync } from 'node:zlib'
import { expect, it, vi } from 'vitest'
import { until } from '../../test/support/until.ts'
import WebSocket from 'ws'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import type { MetricsEvent } from '../app/config.ts'
import { definePlugin, ok } from '../pipeline/plugin.ts'
import { json, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { inject, startTestServer } from '../testing/index.ts'
import { defineWebSocket } from '../websocket/define.ts'
import { metricsStreamHandler, setMetricsUserData } from './metrics.ts'
import { strictLog } from '../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const tagger = definePlugin({
  name: 'tagger',
  info: { title: 'Tagger', version: '0.0.0', author: 'test', description: 'adds metrics user data', options: {} },
  preRequest(req: VelaRequest) {
    setMetricsUserData(req, { tenant: 'acme', step: 1 })
    setMetricsUserData(req, { step: 2, route: req.route.path })
    return ok()
  },
})

const streamed = 'chunk-'.repeat(1000)
const group: RouteGroup = {
  prefix: '',
  security: false,
  plugins: [tagger()],
  routes: [
    ['GET /json', () => json({ hello: 'world' })],
    ['GET /teapot', () => status(418, 'short and stout', { headers: { 'content-type': 'text/plain' } })],
    ['GET /empty', () => status(204)],
    [
      'GET /stream',
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              for (let i = 0; i < 1000; i++) c.enqueue(new TextEncoder().encode('chunk-'))
              c.close()
            },
          }),
        ),
    ],
    ['GET /unicode', () => status(200, 'héllo ✓', { headers: { 'content-type': 'text/plain; charset=utf-8' } })],
  ],
}

const events: MetricsEvent[] = []
let throwing = false
const metricsCallback = (e: MetricsEvent) => {
  events.push(e)
  if (throwing) throw new Error('callback exploded')
}

async function settle(n: number) {
  // The callback runs when the node response finishes, just after the client has the body.
  // Bounded: a missing call fails on the assertions that follow, with what was recorded.
  await until(`${n} metrics callbacks`, () => events.length >= n).catch(() => {})
}

describeModes(
  'metrics hook',
  {
    bootstrapApplication: 'metrics',
    server: { streamHandlers: [metricsStreamHandler, 'default'], options: { metricsCallback } },
    routes: { m: group },
  },
  (t) => {
    const call = async (url: string, method = 'GET') => {
      events.length = 0
      const res = await t.request({ url, method })
      const body = await res.text()
      await settle(1)
      await new Promise((r) => setTimeout(r, 20)) // a second call would show up here
      expect(events, url).toHaveLength(1)
      return { res, body, event: events[0]! }
    }
    it('once per request with status, body length and hrtime bounds', async () => {
      const before = process.hrtime.bigint()
      const { res, body, event } = await call('/json')
      expect(res.status).toBe(200)
      expect(event.respStatus).toBe(200)
      expect(event.respBodyLength).toBe(Buffer.byteLength(body))
      expect(event.reqStart).toBeGreaterThanOrEqual(before)
      expect(event.reqEnd).toBeGreaterThanOrEqual(event.reqStart)
      expect(event.reqEnd).toBeLessThanOrEqual(process.hrtime.bigint())
    })
    it('user data from a plugin: repeated calls merge', async () => {
      const { event } = await call('/json')
      expect(event.userData).toEqual({ tenant: 'acme', step: 2, route: '/json' })
    })
    it('other statuses, empty bodies, HEAD, unrouted requests', async () => {
      expect((await call('/teapot')).event).toMatchObject({ respStatus: 418, respBodyLength: 15 })
      expect((await call('/empty')).event).toMatchObject({ respStatus: 204, respBodyLength: 0 })
      expect((await call('/json', 'HEAD')).event).toMatchObject({ respStatus: 200, respBodyLength: 0 })
      const missing = await call('/nowhere')
      expect(missing.event).toMatchObject({
        respStatus: 404,
        respBodyLength: Buffer.byteLength(missing.body),
        userData: {},
      })
    })
    it('streamed and multi-byte bodies count the bytes sent', async () => {
      expect((await call('/stream')).event.respBodyLength).toBe(streamed.length)
      expect((await call('/unicode')).event.respBodyLength).toBe(Buffer.byteLength('héllo ✓'))
    })
    it('a response whose body the client abandons is still reported, once', async () => {
      events.length = 0
      const res = await t.request('/stream')
      await res.body!.cancel()
      await settle(1)
      await new Promise((r) => setTimeout(r, 20))
      expect(events).toHaveLength(1)
      expect(events[0]!.respStatus).toBe(200)
    })
    it('a throwing callback is logged and the response is unaffected', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {})
      throwing = true
      try {
        const { res, body } = await call('/json')
        expect(res.status).toBe(200)
        expect(body).toBe('{"hello":"world"}')
        expect(error).toHaveBeenCalledWith(
          expect.stringContaining('metricsCallback failed'),
          expect.objectContaining({ message: 'callback exploded' }),
        )
        const again = await call('/teapot')
        expect(again.body).toBe('short and stout')
      } finally {
        throwing = false
        error.mockRestore()
      }
    })
  },
)

it('metricsCallback without the metrics stream handler warns at start-up instead of staying silent', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  try {
    const app = createApp(
      { bootstrapApplication: 'm', server: { options: { metricsCallback } }, routes: { m: group } },
      { env: {}, log: logs.log },
    )
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('does not list metricsStreamHandler'))
    events.length = 0
    expect((await inject(app, '/json')).status).toBe(200)
    expect(events).toHaveLength(0)
  } finally {
    warn.mockRestore()
  }
})

it('without a callback the handler adds nothing to the chain', () => {
  const next = async () => new Response('x')
  const app = createApp({ bootstrapApplication: 'm', routes: { m: group } }, { env: {} })
  expect(metricsStreamHandler.wrap(next, app.config)).toBe(next)
})

const bigGroup: RouteGroup = {
  prefix: '',
  security: false,
  routes: [['GET /big', () => json({ filler: 'metrics '.repeat(500) })]],
}
describeModes(
  'metrics hook with compression',
  {
    bootstrapApplication: 'metrics',
    server: { streamHandlers: [metricsStreamHandler, 'default'], options: { metricsCallback, compress: true } },
    routes: { m: bigGroup },
  },
  (t) => {
    it('the body length is the compressed bytes sent', async () => {
      events.length = 0
      const res = await t.request({ url: '/big', headers: { 'accept-encoding': 'gzip' } })
      expect(res.headers.get('content-encoding')).toBe('gzip')
      await res.arrayBuffer()
      // The same bytes the compressor produced (gzip at its defaults is deterministic).
      const sent = gzipSync(JSON.stringify({ filler: 'metrics '.repeat(500) })).byteLength
      await settle(1)
      expect(events).toHaveLength(1)
      expect(events[0]!.respBodyLength).toBe(sent)
      expect(sent).toBeLessThan(200)
    })
  },
)

it('WebSocket handshakes are reported: 101 with the plugins’ user data when accepted, the refusal’s status and body length otherwise', async () => {
  const app = createApp(
    {
      bootstrapApplication: 'metrics',
      server: { streamHandlers: [metricsStreamHandler, 'default'], options: { metricsCallback } },
      routes: {
        m: [
          {
            prefix: '/live',
            security: (req: VelaRequest) => req.query.token === 'ok',
            plugins: [tagger()],
            routes: [['/', defineWebSocket({ message: (peer, m) => void peer.send(m.text()) }), { protocol: 'ws' }]],
          },
        ],
      },
    },
    { env: {}, log: logs.log },
  )
  const server = await startTestServer(app)
  try {
    events.length = 0
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/live?token=ok`)
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
    ws.close()
    await settle(1)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      respStatus: 101,
      respBodyLength: 0,
      userData: { tenant: 'acme', step: 2, route: '/live' },
    })

    events.length = 0
    const refused = new WebSocket(`${server.url.replace('http', 'ws')}/live`)
    const status = await new Promise<number>((resolve) => {
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      refused.once('error', () => resolve(-1))
    })
    expect(status).toBe(401)
    await settle(1)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      respStatus: 401,
      respBodyLength: JSON.stringify({ error: 'Unauthorized' }).length,
    })
  } finally {
    await server.close({ timeoutMs: 1000 })
  }
})
