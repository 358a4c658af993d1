// The request span: shape, traceparent, error status, 404s, and the
// span being the active context of the route's handler (so dbl query spans are its children).
// Real SDK, in-memory exporter; every case in-process (inject) and over real HTTP.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { defineRepo } from '../dbl/repo.ts'
import { httpError } from '../server/errors/http-error.ts'
import { createApp } from '../server/app/create-app.ts'
import { json, status } from '../server/replies.ts'
import { startTestServer } from '../server/testing/index.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import { describeModes } from '../test/support/modes.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { emptyAdapter, finishedSpans, useInMemorySpans } from './test-support.ts'

const exporter = useInMemorySpans()

const repo = defineRepo({ adapter: emptyAdapter })

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /products/:id', (req) => json({ id: req.bindings.id })],
    ['GET /only-get', () => json({})],
    [
      'GET /throws',
      () => {
        throw new Error('kaput')
      },
    ],
    ['GET /unavailable', () => status(503)],
    [
      'GET /teapot',
      () => {
        throw httpError(418)
      },
    ],
    [
      'POST /posted',
      async (req) => {
        const body = await req.readBody() // node's 'data' events run outside the request's context
        trace.getTracer('test').startActiveSpan('after the body', (span) => span.end())
        return json({ got: body })
      },
    ],
    [
      'GET /children',
      async () => {
        await new Promise((r) => setTimeout(r, 1)) // the context must survive an await
        trace.getTracer('test').startActiveSpan('handler work', (span) => span.end())
        await repo.query('select 1')
        return json({ ok: true })
      },
    ],
  ],
}

const serverSpans = (spans: ReadableSpan[]) => spans.filter((s) => s.kind === SpanKind.SERVER)

describeModes(
  'telemetry stream handler',
  {
    bootstrapApplication: 'shop',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: group },
  },
  (t) => {
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await t.request({ url, headers })
      await res.text()
      const [span, ...more] = serverSpans(await finishedSpans(exporter, 1))
      expect(more).toEqual([])
      expect(span, `a server span for ${url}`).toBeDefined()
      return { res, span: span! }
    }

    it('one SERVER span named after its route, with the request attributes, then the status', async () => {
      const { res, span } = await get('/products/7?x=1', { 'user-agent': 'vela-test/1.0' })
      expect(res.status).toBe(200)
      const port = t.mode === 'http' ? Number(new URL(res.url).port) : 80
      // Inline handlers report the route file and `anonymous` (a controller's would say its action).
      expect(span.name).toBe('GET routes/r:anonymous')
      expect(span.kind).toBe(SpanKind.SERVER)
      expect(span.attributes).toEqual({
        'http.request.method': 'GET',
        'url.path': '/products/7',
        'url.scheme': 'http',
        'server.address': t.mode === 'http' ? '127.0.0.1' : 'localhost',
        'server.port': port,
        'url.query': 'x=1',
        'client.address': '127.0.0.1',
        'network.peer.address': '127.0.0.1',
        // Over node's listener; a web Request with no node request behind it has no socket to read.
        ...(t.mode === 'http' ? { 'network.peer.port': expect.any(Number), 'network.protocol.version': '1.1' } : {}),
        'user_agent.original': 'vela-test/1.0',
        'http.response.status_code': 200,
        'vela.app': 'shop',
        'vela.controller': 'routes/r',
        'vela.action': 'anonymous',
        'http.route': '/products/:id',
      })
      expect(span.status.code).toBe(SpanStatusCode.UNSET)
      expect(span.parentSpanContext).toBeUndefined()
      expect(span.ended).toBe(true)
    })

    it('an incoming W3C traceparent makes the span a child of the upstream span', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
      const upstream = '00f067aa0ba902b7'
      const { span } = await get('/products/1', { traceparent: `00-${traceId}-${upstream}-01` })
      expect(span.spanContext().traceId).toBe(traceId)
      expect(span.parentSpanContext?.spanId).toBe(upstream)
      expect(span.parentSpanContext?.isRemote).toBe(true)
      expect(span.spanContext().spanId).not.toBe(upstream)
    })

    it('a malformed traceparent starts a new trace', async () => {
      const { span } = await get('/products/1', { traceparent: '00-nothex-00f067aa0ba902b7-01' })
      expect(span.parentSpanContext).toBeUndefined()
      expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/)
    })

    it('status 500 and above marks the span as error; below it does not', async () => {
      t.expectLogged(/^500 on GET \/throws .*: Error: kaput$/)
      const thrown = await get('/throws')
      expect(thrown.res.status).toBe(500)
      expect(thrown.span.attributes['http.response.status_code']).toBe(500)
      expect(thrown.span.status.code).toBe(SpanStatusCode.ERROR)
      exporter.reset()
      const unavailable = await get('/unavailable')
      expect(unavailable.span.attributes['http.response.status_code']).toBe(503)
      expect(unavailable.span.status.code).toBe(SpanStatusCode.ERROR)
      exporter.reset()
      const teapot = await get('/teapot')
      expect(teapot.span.attributes['http.response.status_code']).toBe(418)
      expect(teapot.span.status.code).toBe(SpanStatusCode.UNSET)
    })

    it('requests that match no route still get a span (404, 405)', async () => {
      const missing = await get('/nowhere')
      expect(missing.res.status).toBe(404)
      expect(missing.span).toMatchObject({
        name: 'HTTP GET',
        attributes: expect.objectContaining({ 'url.path': '/nowhere', 'http.response.status_code': 404 }),
      })
      exporter.reset()
      const res = await t.request({ url: '/only-get', method: 'DELETE' })
      expect(res.status).toBe(405)
      await res.text()
      const [span] = serverSpans(await finishedSpans(exporter, 1))
      expect(span).toMatchObject({
        name: 'HTTP DELETE',
        attributes: expect.objectContaining({ 'http.response.status_code': 405 }),
      })
      expect(span!.attributes['http.route']).toBeUndefined()
    })

    it('a method outside the standard ones is reported as _OTHER, with the original beside it', async () => {
      const res = await t.request({ url: '/products/1', method: 'PROPFIND' })
      await res.text()
      const [span] = serverSpans(await finishedSpans(exporter, 1))
      expect(span!.name).toBe('HTTP PROPFIND')
      expect(span!.attributes).toMatchObject({
        'http.request.method': '_OTHER',
        'http.request.method_original': 'PROPFIND',
      })
    })

    it("the handler runs in the request span's context: its spans and dbl's query spans are children", async () => {
      const res = await t.request('/children')
      expect(await res.json()).toEqual({ ok: true })
      const spans = await finishedSpans(exporter, 3)
      const [server] = serverSpans(spans)
      const work = spans.find((s) => s.name === 'handler work')
      const query = spans.find((s) => s.name === 'db.query')
      for (const child of [work, query]) {
        expect(child?.spanContext().traceId).toBe(server!.spanContext().traceId)
        expect(child?.parentSpanContext?.spanId).toBe(server!.spanContext().spanId)
      }
      expect(query?.attributes['db.statement']).toBe('select 1')
    })

    it('work after reading the request body still runs in the request span', async () => {
      const res = await t.request({
        url: '/posted',
        method: 'POST',
        body: 'x'.repeat(100_000),
        headers: { 'content-type': 'text/plain' },
      })
      expect(JSON.parse(await res.text()).got).toHaveLength(100_000)
      const spans = await finishedSpans(exporter, 2)
      const [server] = serverSpans(spans)
      const child = spans.find((s) => s.name === 'after the body')
      expect(child?.parentSpanContext?.spanId).toBe(server!.spanContext().spanId)
    })

    it('concurrent requests keep their own spans and contexts', async () => {
      const all = await Promise.all([1, 2, 3, 4].map(() => t.request('/children').then((r) => r.text())))
      expect(all).toHaveLength(4)
      const spans = await finishedSpans(exporter, 12)
      const servers = serverSpans(spans)
      expect(servers).toHaveLength(4)
      expect(new Set(servers.map((s) => s.spanContext().traceId)).size).toBe(4)
      for (const s of spans.filter((x) => x.kind !== SpanKind.SERVER)) {
        const parent = servers.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId)
        expect(parent?.spanContext().traceId).toBe(s.spanContext().traceId)
      }
    })

    if (t.mode === 'in-process') {
      it('the span ends when the response body has been sent, not when the handler returns', async () => {
        const res = await t.request('/products/1')
        await new Promise((r) => setTimeout(r, 20))
        expect(exporter.getFinishedSpans()).toHaveLength(0)
        await res.text()
        expect(serverSpans(exporter.getFinishedSpans())).toHaveLength(1)
      })
      it('a response whose body the client cancels still ends its span', async () => {
        const res = await t.request('/products/1')
        await res.body!.cancel()
        expect(serverSpans(await finishedSpans(exporter, 1))).toHaveLength(1)
      })
    }
  },
)

// Over a socket, the app traces on node's request (wrapNode) unless something needs the whole
// request as a web Request: compression does, which puts the same app on the fetch path. Raw
// requests with unusual targets and Host headers must give the same span on both.
describe('node path and fetch path give the same span', () => {
  const appOn = (compress: boolean) =>
    createApp({
      bootstrapApplication: 'shop',
      server: { streamHandlers: [telemetryStreamHandler, 'default'], options: { compress } },
      routes: { r: group },
    })
  const raw = (port: number, head: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(`${head}\r\n\r\n`))
      let out = ''
      socket.on('data', (d) => (out += d))
      socket.on('end', () => resolve(out))
      socket.on('error', reject)
    })
  const cases = [
    [
      'IPv6 Host with a port',
      'GET /products/3 HTTP/1.1\r\nHost: [::1]:8443\r\nConnection: close',
      { 'server.address': '[::1]', 'server.port': 8443, 'url.path': '/products/3' },
    ],
    [
      'Host without a port, upper case',
      'GET /products/3?q=1 HTTP/1.1\r\nHost: Shop.Example\r\nConnection: close',
      {
        'server.address': 'shop.example',
        'server.port': 80,
        'url.query': 'q=1',
        'network.protocol.version': '1.1',
        'network.peer.port': true,
        'client.address': '127.0.0.1',
      },
    ],
    [
      'absolute-form target (its authority wins over Host)',
      'GET http://api.example:8080/products/4 HTTP/1.1\r\nHost: other.example\r\nConnection: close',
      { 'server.address': 'api.example', 'server.port': 8080, 'url.path': '/products/4' },
    ],
    // Without Host, the address the request came in on (the two servers' ports differ).
    [
      'HTTP/1.0 without Host',
      'GET /products/6 HTTP/1.0',
      {
        'server.address': '127.0.0.1',
        'server.port': 'the listening port',
        'url.path': '/products/6',
        'network.protocol.version': '1.0',
      },
    ],
    [
      'HEAD',
      'HEAD /products/5 HTTP/1.1\r\nHost: shop.example:3000\r\nConnection: close',
      { 'http.request.method': 'HEAD', 'server.port': 3000, 'http.response.status_code': 200 },
    ],
  ] as const

  for (const [name, head, expected] of cases) {
    it(name, async () => {
      const attributes = []
      for (const compress of [false, true]) {
        const server = await startTestServer(appOn(compress))
        try {
          expect(await raw(server.port, head)).toMatch(/^HTTP\/1\.1 200 /)
          const [span] = serverSpans(await finishedSpans(exporter, 1))
          expect(span?.name, `${compress ? 'fetch' : 'node'} path`).toBe(`${head.split(' ')[0]} routes/r:anonymous`)
          const port = span!.attributes['server.port']
          // Each connection has its own client port: compared as "a port".
          const peerPort = span!.attributes['network.peer.port']
          attributes.push({
            ...span!.attributes,
            'server.port': port === server.port ? 'the listening port' : port,
            'network.peer.port': typeof peerPort === 'number' && peerPort > 0,
          })
          exporter.reset()
        } finally {
          await server.close()
        }
      }
      const [node, fetched] = attributes
      expect(node).toMatchObject(expected)
      expect(node).toEqual(fetched)
    })
  }
})

// Behind a proxy listed in server.trustProxy the span says who the client is and which scheme it
// used; the socket's address stays network.peer.address.
describeModes(
  'telemetry stream handler behind a trusted proxy',
  {
    bootstrapApplication: 'shop',
    server: { trustProxy: ['127.0.0.1'], streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: group },
  },
  (t) => {
    it('client.address is the forwarded client; url.scheme the forwarded scheme', async () => {
      const res = await t.request({
        url: '/products/1',
        headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
      })
      await res.text()
      const [span] = serverSpans(await finishedSpans(exporter, 1))
      expect(span!.attributes).toMatchObject({
        'client.address': '203.0.113.7',
        'network.peer.address': '127.0.0.1',
        'url.scheme': 'https',
      })
    })
  },
)
