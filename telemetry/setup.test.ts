// setupTelemetry() and its handle: what it registers, what it starts, and that shutdown() undoes it all.
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { ProxyTracerProvider, context, metrics, propagation, trace } from '@opentelemetry/api'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace'
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import { afterEach, expect, it, vi } from 'vitest'
import { forgetDeprecationWarnings } from '../server/deprecation.ts'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import type { Telemetry } from './setup.ts'
import { setup, setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const app = createApp(
  {
    bootstrapApplication: 'a',
    server: { streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: { prefix: '', security: false, routes: [['GET /x', () => json({ x: 1 })]] } },
  },
  { env: {}, log: logs.log },
)
const hit = async () => {
  const res = await inject(app, '/x')
  expect(await res.json()).toEqual({ x: 1 })
}
const noopDelegate = new ProxyTracerProvider().getDelegate()
const globalTracerDelegate = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate()

let handles: Telemetry[] = []
afterEach(async () => {
  await Promise.all(handles.map((h) => h.shutdown()))
  handles = []
})
const start = async (...args: Parameters<typeof setupTelemetry>) => {
  const h = await setupTelemetry(...args)
  handles.push(h)
  return h
}

it('setupTelemetry() registers the global providers and starts no server; shutdown() unregisters them', async () => {
  const t = await start({ spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })] })
  expect(t.prometheusUrl).toBeUndefined()
  // The meter provider is there for the app's own metrics, which /metrics serves (app-metrics.test.ts).
  expect(metrics.getMeterProvider()).toBe(t.meterProvider)
  expect(globalTracerDelegate()).toBe(t.tracerProvider)
  // The standard default (OTEL_PROPAGATORS unset): W3C trace context and baggage.
  expect(propagation.fields()).toEqual(['traceparent', 'tracestate', 'baggage'])
  // The context manager is AsyncLocalStorage: an active span survives an await.
  const span = trace.getTracer('t').startSpan('outer')
  const seen = await context.with(trace.setSpan(context.active(), span), async () => {
    await new Promise((r) => setTimeout(r, 1))
    return trace.getActiveSpan()
  })
  expect(seen).toBe(span)
  await t.shutdown()
  expect(globalTracerDelegate()).toBe(noopDelegate)
  expect(propagation.fields()).toEqual([])
  expect(await context.with(trace.setSpan(context.active(), span), async () => trace.getActiveSpan())).toBeUndefined()
})

it('with exportIntervalMs the global meter provider exports over OTLP too', async () => {
  const t = await start({ spanProcessors: [], exportIntervalMs: 60_000, endpoint: 'http://127.0.0.1:9' })
  expect(t.meterProvider).toBeDefined()
  expect(metrics.getMeterProvider()).toBe(t.meterProvider)
  await t.shutdown()
  expect(metrics.getMeterProvider()).not.toBe(t.meterProvider)
})

it('one set-up at a time; after shutdown() a new one works', async () => {
  const first = await start({ spanProcessors: [] })
  await expect(setupTelemetry()).rejects.toThrow(/already called/)
  await expect(setupTelemetry()).rejects.toMatchObject({ name: 'VelaError', code: 'VELA_ERR_TELEMETRY' })
  await first.shutdown()
  await first.shutdown() // idempotent
  const exporter = new InMemorySpanExporter()
  await start({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  await hit()
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET routes/r:anonymous'])
})

it('without a running set-up the stream handler passes requests straight through', async () => {
  const exporter = new InMemorySpanExporter()
  const t = await start({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  await t.shutdown()
  await hit()
  expect(exporter.getFinishedSpans()).toEqual([])
  expect(await t.metrics()).not.toMatch(/^http_server_request_duration_seconds_count/m)
})

it('shutdown() flushes spans still waiting in the batch processor', async () => {
  const exported: ReadableSpan[] = []
  const exporter: SpanExporter = {
    export: (spans, done) => {
      exported.push(...spans)
      done({ code: 0 })
    },
    shutdown: async () => {},
  }
  const t = await start({ spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 60_000 })] })
  await hit()
  await hit()
  expect(exported).toEqual([])
  await t.shutdown()
  expect(exported.map((s) => s.name)).toEqual(['GET routes/r:anonymous', 'GET routes/r:anonymous'])
})

it('a prometheus port already in use fails setupTelemetry() and leaves nothing registered', async () => {
  const blocker = createServer()
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
  try {
    const port = (blocker.address() as AddressInfo).port
    await expect(setupTelemetry({ spanProcessors: [], prometheus: { port, host: '127.0.0.1' } })).rejects.toThrow(
      /EADDRINUSE/,
    )
    expect(globalTracerDelegate()).toBe(noopDelegate)
    const t = await start({ spanProcessors: [] }) // not blocked by the failed attempt
    expect(t).toBeDefined()
  } finally {
    await new Promise((r) => blocker.close(r))
  }
})

it("wired through the app's start and stop hooks, as the telemetry guide shows", async () => {
  const exporter = new InMemorySpanExporter()
  let telemetry: Telemetry | undefined
  const wired = createApp(
    {
      bootstrapApplication: 'wired',
      server: { streamHandlers: [telemetryStreamHandler, 'default'] },
      routes: { r: { prefix: '', security: false, routes: [['GET /x', () => json({ x: 1 })]] } },
      async start() {
        telemetry = await setupTelemetry({
          spanProcessors: [new SimpleSpanProcessor({ exporter })],
          prometheus: { port: 0, host: '127.0.0.1' },
        })
      },
      async stop() {
        await telemetry?.shutdown()
      },
    },
    { env: {}, log: logs.log },
  )
  await wired.start()
  await (await inject(wired, '/x')).text()
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET routes/r:anonymous'])
  const scraped = await (await fetch(telemetry!.prometheusUrl!)).text()
  expect(scraped).toMatch(
    /^http_server_request_duration_seconds_count\{method="GET",scheme="http",server_address="localhost",server_port="8080",response_status_code="200",http_route="\/x"\} 1$/m,
  )
  await wired.stop()
  await expect(fetch(telemetry!.prometheusUrl!)).rejects.toThrow()
  expect(globalTracerDelegate()).toBe(noopDelegate)
})

it('setup() is the older name of setupTelemetry(): it sets telemetry up, with one deprecation warning', async () => {
  forgetDeprecationWarnings()
  const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
  try {
    const t = await setup({ spanProcessors: [] })
    await expect(setup()).rejects.toMatchObject({ code: 'VELA_ERR_TELEMETRY' })
    await t.shutdown()
    expect(warnings.mock.calls.map(([message, o]) => [(o as { code: string }).code, String(message)])).toEqual([
      ['VELA_DEP_TELEMETRY_SETUP', "vela/telemetry's setup() is deprecated: call setupTelemetry()"],
    ])
  } finally {
    warnings.mockRestore()
    forgetDeprecationWarnings()
  }
})
