// OTEL_EXPORTER_OTLP_PROTOCOL=grpc: spans and metrics reach an OTLP/gRPC receiver (a gRPC server
// answering the collector's Export methods, recording the raw protobuf requests).
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js'
import { Server, ServerCredentials } from '@grpc/grpc-js'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import type { DecodedMetrics, DecodedTraces } from '../test/support/otlp.ts'
import { attrs, decode } from '../test/support/otlp.ts'
import { strictLog } from '../test/support/logs.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { eventually } from './test-support.ts'

const logs = strictLog()
const received: { service: string; body: Buffer }[] = []
const server = new Server()
const raw = (b: Buffer) => b
/** One unary Export method that keeps the request's bytes and answers an empty message. */
const exportMethod = (service: string) => ({
  Export: {
    path: `/opentelemetry.proto.collector.${service}/Export`,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
})
const record = (service: string) => ({
  Export: (call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) => {
    received.push({ service, body: call.request })
    done(null, Buffer.alloc(0))
  },
})
let endpoint = ''
beforeAll(async () => {
  for (const service of ['trace.v1.TraceService', 'metrics.v1.MetricsService'])
    server.addService(exportMethod(service), record(service))
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  )
  endpoint = `http://127.0.0.1:${port}`
})
afterAll(() => new Promise<void>((resolve) => server.tryShutdown(() => resolve())))

let telemetry: Telemetry | undefined
afterEach(async () => {
  await telemetry?.shutdown()
  telemetry = undefined
  vi.unstubAllEnvs()
})

const app = createApp(
  {
    bootstrapApplication: 'grpc',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: { prefix: '', security: false, routes: [['GET /x', () => json({ x: 1 })]] } },
  },
  { env: {}, log: logs.log },
)

it('OTEL_EXPORTER_OTLP_PROTOCOL=grpc exports spans and metrics over OTLP/gRPC', async () => {
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc')
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint)
  vi.stubEnv('OTEL_METRICS_EXPORTER', 'otlp')
  telemetry = await setupTelemetry({ serviceName: 'grpc-app' })
  const res = await inject(app, { url: '/x' })
  expect(await res.json()).toEqual({ x: 1 }) // the span ends once the body has been sent
  await telemetry.shutdown()
  const traces = await eventually(() => received.find((r) => r.service === 'trace.v1.TraceService'))
  const decoded = decode<DecodedTraces>('ExportTraceServiceRequest', traces!.body)
  expect(attrs(decoded.resourceSpans[0]!.resource.attributes)).toMatchObject({ 'service.name': 'grpc-app' })
  const span = decoded.resourceSpans[0]!.scopeSpans.flatMap((s) => s.spans)[0]
  expect(span?.name).toBe('GET routes/r:anonymous')
  expect(attrs(span?.attributes)).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200 })
  const metrics = await eventually(() => received.find((r) => r.service === 'metrics.v1.MetricsService'))
  const names = decode<DecodedMetrics>('ExportMetricsServiceRequest', metrics!.body).resourceMetrics.flatMap((r) =>
    r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.name)),
  )
  expect(names).toContain('http.server.request.duration')
})
