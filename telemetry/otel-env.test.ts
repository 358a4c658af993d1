// The standard OTEL_* variables configure vela/telemetry as they configure any OpenTelemetry SDK:
// the exporter and its protocol, the sampler, and OTEL_SDK_DISABLED.
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import type { Collector } from '../test/support/otlp.ts'
import { attrs, decode, hex, startCollector } from '../test/support/otlp.ts'
import { strictLog } from '../test/support/logs.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { eventually } from './test-support.ts'

const logs = strictLog()
let collector: Collector
beforeAll(async () => {
  collector = await startCollector()
})
afterAll(() => collector.close())

let telemetry: Telemetry | undefined
afterEach(async () => {
  await telemetry?.shutdown()
  telemetry = undefined
  vi.unstubAllEnvs()
  collector.received.length = 0
})

const app = createApp(
  {
    bootstrapApplication: 'env',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: { prefix: '', security: false, routes: [['GET /x', () => json({ x: 1 })]] } },
  },
  { env: {}, log: logs.log },
)
const hit = async (headers: Record<string, string> = {}) => {
  const res = await inject(app, { url: '/x', headers })
  expect(await res.json()).toEqual({ x: 1 })
}
/** Sets up from the variables alone, sends one request and shuts down (which flushes). */
const oneRequest = async (env: Record<string, string>, headers?: Record<string, string>) => {
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.endpoint)
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
  telemetry = await setupTelemetry({ serviceName: 'env' })
  await hit(headers)
  await telemetry.shutdown()
}

it('OTEL_EXPORTER_OTLP_PROTOCOL=http/json posts OTLP JSON to /v1/traces', async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c'
  await oneRequest({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, { traceparent: `00-${traceId}-b7ad6b7169203331-01` })
  const post = await eventually(() => collector.received.find((r) => r.path === '/v1/traces'))
  expect(post?.contentType).toMatch(/^application\/json/)
  const [span] = collector.spans()
  expect(span?.name).toBe('GET routes/r:anonymous')
  expect(hex(span?.traceId)).toBe(traceId)
  expect(attrs(span?.attributes)).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200 })
})

it('the default protocol is http/protobuf, also with the endpoint option', async () => {
  telemetry = await setupTelemetry({ endpoint: collector.endpoint })
  expect(process.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined() // the option applied to the SDK's start only
  await hit()
  await telemetry.shutdown()
  const post = await eventually(() => collector.received.find((r) => r.path === '/v1/traces'))
  expect(post?.contentType).toBe('application/x-protobuf')
  vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json')
  collector.received.length = 0
  telemetry = await setupTelemetry({ endpoint: collector.endpoint })
  await hit()
  await telemetry.shutdown()
  expect((await eventually(() => collector.received.find((r) => r.path === '/v1/traces')))?.contentType).toMatch(
    /^application\/json/,
  )
})

it('OTEL_TRACES_EXPORTER=none exports no spans, and requests are still answered and measured', async () => {
  await oneRequest({ OTEL_TRACES_EXPORTER: 'none' })
  expect(collector.received).toEqual([])
  expect(telemetry!.tracerProvider.getTracer('t').startSpan('s').isRecording()).toBe(false)
})

it('OTEL_TRACES_SAMPLER=always_off, or the sampler option, records no span', async () => {
  await oneRequest({ OTEL_TRACES_SAMPLER: 'always_off' })
  expect(collector.received).toEqual([])
  vi.unstubAllEnvs()
  telemetry = await setupTelemetry({ endpoint: collector.endpoint, sampler: new AlwaysOffSampler() })
  await hit()
  await telemetry.shutdown()
  expect(collector.received).toEqual([])
})

it('OTEL_SDK_DISABLED=true starts nothing: no spans, no /metrics server, requests pass through', async () => {
  vi.stubEnv('OTEL_SDK_DISABLED', 'true')
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.endpoint)
  telemetry = await setupTelemetry({ prometheus: { port: 0 } })
  expect(telemetry.prometheusUrl).toBeUndefined()
  await hit()
  await telemetry.forceFlush()
  await telemetry.shutdown()
  expect(collector.received).toEqual([])
  expect(await telemetry.metrics()).not.toMatch(/_count\{/)
})

it('OTEL_RESOURCE_ATTRIBUTES reaches the exported resource; the serviceName option wins', async () => {
  await oneRequest({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging,service.name=ignored' })
  await eventually(() => collector.received.find((r) => r.path === '/v1/traces'))
  const decoded = decode<{ resourceSpans: { resource: { attributes: never[] } }[] }>(
    'ExportTraceServiceRequest',
    collector.received[0]!.body,
  )
  expect(attrs(decoded.resourceSpans[0]!.resource.attributes)).toMatchObject({
    'deployment.environment.name': 'staging',
    'service.name': 'env',
  })
})

it('no logger provider is registered unless OTEL_LOGS_EXPORTER asks for one (the app keeps the logs signal)', async () => {
  const LOGS = Symbol.for('io.opentelemetry.js.api.logs')
  telemetry = await setupTelemetry({ spanProcessors: [] })
  expect((globalThis as Record<symbol, unknown>)[LOGS]).toBeUndefined()
  expect(process.env.OTEL_LOGS_EXPORTER).toBeUndefined()
})
