// An app that starts its own OpenTelemetry SDK before setupTelemetry() (as `node --import ./instrumentation.mjs`
// does, here with the pg auto-instrumentation): Vela registers nothing of its own, its request
// spans go to the app's SDK, and the pg driver's query span nests under the request span.
import { diag, DiagLogLevel, type ProxyTracerProvider, SpanKind, trace } from '@opentelemetry/api'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { MetricReader } from '@opentelemetry/sdk-metrics'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import type { ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import type { Route } from '../server/contracts/routes.ts'
import { json } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import { POSTGRES_URL, serviceAvailable } from '../test/support/services.ts'
import { strictLog } from '../test/support/logs.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { eventually } from './test-support.ts'

const hasPostgres = await serviceAvailable('postgres')
const logs = strictLog()
const exporter = new InMemorySpanExporter()
/** The app's own metric reader, read on demand. */
class AppReader extends MetricReader {
  protected override async onForceFlush() {}
  protected override async onShutdown() {}
}
const reader = new AppReader()
const sdk = new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
  metricReaders: [reader],
  instrumentations: [new PgInstrumentation()],
})
// Everything the api reports (a second registration is reported as an error) is kept here.
const reported: string[] = []
const keep = (...args: unknown[]) => reported.push(args.map(String).join(' '))
diag.setLogger({ error: keep, warn: keep, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN)

let telemetry: Telemetry
beforeAll(async () => {
  sdk.start()
  telemetry = await setupTelemetry()
})
afterAll(async () => {
  await telemetry.shutdown()
  await sdk.shutdown()
  diag.disable()
})

/** An app with telemetry's stream handler serving `routes`, its spans and metrics going to the app's SDK. */
const appWith = (routes: Route[]) =>
  createApp(
    {
      bootstrapApplication: 'joined',
      server: { streamHandlers: [telemetryStreamHandler, 'default'] },
      routes: { r: { prefix: '', security: false, routes } },
    },
    { env: {}, log: logs.log },
  )

it('setupTelemetry() joins the registered SDK: no second registration, nothing reported', () => {
  expect(telemetry.joined).toBe(true)
  expect(telemetry.tracerProvider).toBe((trace.getTracerProvider() as ProxyTracerProvider).getDelegate())
  expect(reported).toEqual([])
})

it("Vela's HTTP metrics are recorded on the app's meter provider", async () => {
  const app = appWith([['GET /m', () => json({ ok: true })]])
  expect(await (await inject(app, '/m')).json()).toEqual({ ok: true })
  const { resourceMetrics } = await reader.collect()
  const names = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name))
  expect(names).toContain('http.server.request.duration')
})

it("the request span the app's SDK exports records the request's user agent", async () => {
  const app = appWith([['GET /ua', () => json({ ok: true })]])
  expect(await (await inject(app, { url: '/ua', headers: { 'user-agent': 'joined-sdk/1.0' } })).json()).toEqual({
    ok: true,
  })
  const span = await eventually(() =>
    exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/ua'),
  )
  expect(span?.attributes['user_agent.original']).toBe('joined-sdk/1.0')
})

it.skipIf(!hasPostgres)("the pg driver's query span is a child of the request span", async () => {
  // Loaded after the SDK started, as `--import ./instrumentation.mjs` guarantees.
  const { default: pg } = await import('pg')
  const app = appWith([
    [
      'GET /one',
      async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL })
        await client.connect()
        try {
          return json((await client.query('SELECT 1 AS one')).rows[0])
        } finally {
          await client.end()
        }
      },
    ],
  ])
  const res = await inject(app, '/one')
  expect(await res.json()).toEqual({ one: 1 })
  const spans = (await eventually(() => {
    const all = exporter.getFinishedSpans()
    return all.some((s) => s.kind === SpanKind.SERVER) &&
      all.some((s) => s.kind === SpanKind.CLIENT && /SELECT/.test(s.name))
      ? all
      : undefined
  })) as ReadableSpan[]
  const query = spans.find((s) => s.kind === SpanKind.CLIENT && /SELECT/.test(s.name))!
  const request = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/one')!
  expect(request.name).toBe('GET routes/r:anonymous')
  expect(query.spanContext().traceId).toBe(request.spanContext().traceId)
  expect(query.parentSpanContext?.spanId).toBe(request.spanContext().spanId)
  expect(query.attributes['db.system.name'] ?? query.attributes['db.system']).toBe('postgresql')
  expect(reported).toEqual([])
})

it.skipIf(!hasPostgres)(
  "vela/dbl's statements reach the driver in their caller's context: a job waiting for a busy pool is not parented to the request that opened the connection",
  async () => {
    // Loaded after the SDK started, so vela/dbl's `pg` is the instrumented one.
    const { defineRepo } = await import('../dbl/repo.ts')
    const repo = defineRepo({ url: POSTGRES_URL, poolSize: 1 })
    try {
      // The pool's one connection is opened here, so its socket's callbacks run in this request's
      // context from now on.
      const app = appWith([['GET /opens', async () => json({ ok: (await repo.query('SELECT 1 AS opens')).ok })]])
      expect(await (await inject(app, '/opens')).json()).toEqual({ ok: true })
      // Outside any request: one statement holds the connection, the next waits for it and is
      // handed it from inside the first one's answer, on that socket.
      const held = repo.query('SELECT pg_sleep(0.05) AS held')
      const job = repo.query('SELECT 2 AS job')
      expect((await Promise.all([held, job])).map((r) => r.ok)).toEqual([true, true])
      // The driver's own span of a statement (the instrumentation's, not vela/dbl's).
      const driverSpan = (spans: ReadableSpan[], sql: string) =>
        spans.find(
          (s) => /^pg\.query/.test(s.name) && (s.attributes['db.query.text'] ?? s.attributes['db.statement']) === sql,
        )
      const spans = (await eventually(() => {
        const all = exporter.getFinishedSpans()
        return driverSpan(all, 'SELECT 2 AS job') ? all : undefined
      })) as ReadableSpan[]
      const request = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/opens')!
      expect(driverSpan(spans, 'SELECT 1 AS opens')?.parentSpanContext?.spanId).toBe(request.spanContext().spanId)
      // The driver's span of each job statement has no parent, as the job has none.
      for (const sql of ['SELECT pg_sleep(0.05) AS held', 'SELECT 2 AS job']) {
        const span = driverSpan(spans, sql)
        expect(span, sql).toBeDefined()
        expect(span!.parentSpanContext, sql).toBeUndefined()
      }
    } finally {
      await repo.stop()
    }
  },
)
