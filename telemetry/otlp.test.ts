// End to end over OTLP http/protobuf (traces, and metrics with an export interval): the real batch processor and OTLP
// exporters post to a collector stand-in on an ephemeral port; the bodies are decoded with
// protobufjs against the OTLP message definitions (the subset these assertions read).
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import type { VelaRequest } from '../server/request.ts'
import { inject } from '../server/testing/index.ts'
import type { Collector, DecodedMetrics, DecodedTraces } from '../test/support/otlp.ts'
import { attrs, decode, hex, startCollector } from '../test/support/otlp.ts'
import { telemetryPlugin } from './plugin.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { eventually } from './test-support.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

// The collector stand-in (test/support/otlp.ts): records every POST, decodes OTLP protobuf.
let collector: Collector
let received: Collector['received']
let endpoint: string
beforeAll(async () => {
  collector = await startCollector()
  received = collector.received
  endpoint = collector.endpoint
})
afterAll(() => collector.close())

let telemetry: Telemetry | undefined
afterEach(async () => {
  await telemetry?.shutdown()
  telemetry = undefined
  vi.unstubAllEnvs()
  received.length = 0
})

const items_controller = { show: (req: VelaRequest) => json({ id: req.bindings.id }) }
const app = createApp(
  {
    bootstrapApplication: 'shop',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    plugins: [telemetryPlugin()],
    routes: { r: { prefix: '', security: false, routes: [['GET /items/:id', items_controller.show]] } },
    controllers: { 'src/controllers/items_controller.ts': items_controller },
  },
  { env: {}, log: logs.log },
)
const request = async (headers: Record<string, string> = {}) => {
  const res = await inject(app, { url: '/items/9', headers })
  expect(await res.json()).toEqual({ id: '9' })
}
const posted = (path: string) => eventually(() => received.find((r) => r.path === path))

it('spans are batched and posted to <endpoint>/v1/traces as OTLP protobuf', async () => {
  telemetry = await setupTelemetry({ endpoint: `${endpoint}/`, serviceName: 'shop-e2e' })
  const traceId = '0af7651916cd43dd8448eb211c80319c'
  await request({ traceparent: `00-${traceId}-b7ad6b7169203331-01`, 'user-agent': 'e2e' })
  expect(received).toEqual([]) // batched: nothing sent before the flush
  await telemetry.forceFlush()
  const post = await posted('/v1/traces')
  expect(post?.contentType).toBe('application/x-protobuf')
  const decoded = decode<DecodedTraces>('ExportTraceServiceRequest', post!.body)
  const [resourceSpans] = decoded.resourceSpans
  expect(attrs(resourceSpans!.resource.attributes)).toMatchObject({
    'service.name': 'shop-e2e',
    'telemetry.sdk.language': 'nodejs',
  })
  const spans = resourceSpans!.scopeSpans.flatMap((s) => s.spans)
  expect(spans).toHaveLength(1)
  const span = spans[0]!
  expect(span.name).toBe('GET items_controller:show')
  expect(span.kind).toBe(2) // SPAN_KIND_SERVER
  expect(hex(span.traceId)).toBe(traceId)
  expect(hex(span.parentSpanId)).toBe('b7ad6b7169203331')
  expect(attrs(span.attributes)).toEqual({
    'http.request.method': 'GET',
    'client.address': '127.0.0.1',
    'url.path': '/items/9',
    'url.scheme': 'http',
    'server.address': 'localhost',
    'server.port': 80,
    'network.peer.address': '127.0.0.1',
    'user_agent.original': 'e2e',
    'http.response.status_code': 200,
    'vela.app': 'shop',
    'vela.controller': 'items_controller',
    'vela.action': 'show',
    'http.route': '/items/:id',
  })
  expect(span.status?.code ?? 0).toBe(0) // STATUS_CODE_UNSET
  // No metrics over OTLP unless exportIntervalMs is given.
  await telemetry.shutdown()
  expect(received.filter((r) => r.path !== '/v1/traces')).toEqual([])
})

it('without the endpoint option the standard OTEL_EXPORTER_OTLP_* variables choose the URL', async () => {
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint)
  telemetry = await setupTelemetry()
  await request()
  await telemetry.shutdown() // shutdown flushes the batch
  expect((await posted('/v1/traces'))?.body.length).toBeGreaterThan(0)

  received.length = 0
  vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${endpoint}/custom/traces`)
  telemetry = await setupTelemetry()
  await request()
  await telemetry.shutdown()
  expect(await posted('/custom/traces')).toBeDefined()
  expect(received.map((r) => r.path)).toEqual(['/custom/traces'])
})

it('with exportIntervalMs the HTTP metrics are exported over OTLP to <endpoint>/v1/metrics', async () => {
  telemetry = await setupTelemetry({ endpoint, exportIntervalMs: 50, spanProcessors: [] })
  await request()
  const post = await posted('/v1/metrics')
  expect(post?.contentType).toBe('application/x-protobuf')
  const decoded = decode<DecodedMetrics>('ExportMetricsServiceRequest', post!.body)
  const metrics = decoded.resourceMetrics
    .flatMap((r) => r.scopeMetrics)
    .filter((s) => s.scope.name === 'vela')
    .flatMap((s) => s.metrics)
  expect(Object.fromEntries(metrics.map((m) => [m.name, m.unit]))).toEqual({
    'http.server.request.duration': 's',
    'http.server.active_requests': '{request}',
    'http.server.request.body.size': 'By',
    'http.server.response.body.size': 'By',
  })
})
