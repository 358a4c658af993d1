// Sampling of request spans: the sampler is asked once per request, before anything of the span is
// built; parent-based by default; an unsampled request makes no span (nor query spans); with
// nothing to receive spans no span is made at all. Also the server-error attributes and
// url.query redaction. Real SDK, in-memory exporter, requests in-process and over HTTP.
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api'
import { ROOT_CONTEXT, trace } from '@opentelemetry/api'
import type { ReadableSpan, Sampler, SamplingResult } from '@opentelemetry/sdk-trace'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { defineRepo } from '../dbl/repo.ts'
import { createApp } from '../server/app/create-app.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import { json, status } from '../server/replies.ts'
import { inject } from '../server/testing/index.ts'
import { describeModes } from '../test/support/modes.ts'
import { RequestSampler, followsParent, newTraceBound } from './sampling.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { emptyAdapter, finishedSpans } from './test-support.ts'

const repo = defineRepo({ adapter: emptyAdapter })

class DbFailure extends Error {}

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /plain', () => json({ ok: true })],
    ['GET /query', async () => (await repo.query('SELECT 1'), json({ ok: true }))],
    [
      'GET /throws',
      () => {
        throw new DbFailure('down')
      },
    ],
    ['GET /five-oh-three', () => status(503, 'busy')],
  ],
}
const appConfig = {
  bootstrapApplication: 'sampled',
  server: { streamHandlers: [telemetryStreamHandler, 'default'], trustProxy: ['127.0.0.1'] },
  routes: { r: group },
} as const

/** The sampler the provider was built with: counts its questions, answers as `inner` does. */
const asked = { count: 0, inner: new ParentBasedSampler({ root: new AlwaysOnSampler() }) as Sampler }
const counting: Sampler = {
  shouldSample(
    ctx: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    asked.count++
    return asked.inner.shouldSample(ctx, traceId, name, kind, attributes, links)
  },
}

const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
beforeAll(async () => {
  telemetry = await setupTelemetry({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    sampler: counting,
    redactQuery: ['token'],
  })
})
afterAll(() => telemetry.shutdown())
afterEach(() => {
  exporter.reset()
  asked.count = 0
  asked.inner = new ParentBasedSampler({ root: new AlwaysOnSampler() })
})

const SAMPLED = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
const UNSAMPLED = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00'
const byName = (spans: ReadableSpan[], prefix: string) => spans.filter((s) => s.name.startsWith(prefix))
/** Lets spans that would end after the response show up before asserting there are none. */
const settle = () => new Promise((r) => setTimeout(r, 50))

describeModes('request sampling', appConfig, (t) => {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.request({ url, headers })
    await res.text()
    return res
  }

  it('a sampled traceparent is followed: the span and its query span join the upstream trace', async () => {
    expect((await get('/query', { traceparent: SAMPLED })).status).toBe(200)
    const spans = await finishedSpans(exporter, 2)
    expect(spans.map((s) => s.spanContext().traceId)).toEqual([
      '4bf92f3577b34da6a3ce929d0e0e4736',
      '4bf92f3577b34da6a3ce929d0e0e4736',
    ])
    expect(byName(spans, 'GET ').map((s) => s.parentSpanContext?.spanId)).toEqual(['00f067aa0ba902b7'])
    expect(byName(spans, 'SELECT').length + byName(spans, 'db.query').length).toBe(1)
  })

  it('an unsampled traceparent gives no request span and no query span; the sampler is asked once', async () => {
    expect((await get('/query', { traceparent: UNSAMPLED })).status).toBe(200)
    await settle()
    expect(exporter.getFinishedSpans()).toEqual([])
    expect(asked.count).toBe(1)
  })

  it('a sampled request asks the sampler once for its span (the decision is not asked again)', async () => {
    await get('/plain')
    expect(await finishedSpans(exporter, 1)).toHaveLength(1)
    expect(asked.count).toBe(1)
  })

  it('a request the sampler drops makes no span and no query span', async () => {
    asked.inner = new ParentBasedSampler({ root: { shouldSample: () => ({ decision: SamplingDecision.NOT_RECORD }) } })
    await get('/query')
    await settle()
    expect(exporter.getFinishedSpans()).toEqual([])
    expect(asked.count).toBe(1)
  })

  it('error.type: the exception class when the route threw, the status code on another 5xx', async () => {
    t.expectLogged(/500 on GET \/throws/)
    expect((await get('/throws')).status).toBe(500)
    expect((await get('/five-oh-three')).status).toBe(503)
    const spans = await finishedSpans(exporter, 2)
    expect(spans.map((s) => [s.attributes['http.response.status_code'], s.attributes['error.type']])).toEqual([
      [500, 'DbFailure'],
      [503, '503'],
    ])
  })

  it('url.query with the listed keys and the signature keys redacted', async () => {
    await get('/plain?q=shoes&token=s3cret&sig=abc&page=2')
    const [span] = await finishedSpans(exporter, 1)
    expect(span!.attributes['url.query']).toBe('q=shoes&token=REDACTED&sig=REDACTED&page=2')
  })

  it('client.address: the Forwarded client through a trusted proxy; network.peer.address the socket', async () => {
    await get('/plain', { forwarded: 'for="[2001:db8::7]:4711";proto=https' })
    const [span] = await finishedSpans(exporter, 1)
    expect(span!.attributes).toMatchObject({
      'client.address': '2001:db8::7',
      'network.peer.address': '127.0.0.1',
      'url.scheme': 'https',
    })
  })
})

describe('ratio sampling', () => {
  it('TraceIdRatioBased(0.1) over 1,000 new requests traces between 6 % and 14 % of them', async () => {
    asked.inner = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) })
    const app = createApp(appConfig)
    for (let i = 0; i < 1000; i++) await (await inject(app, '/plain')).text()
    await settle()
    const n = exporter.getFinishedSpans().length
    expect(n).toBeGreaterThanOrEqual(60)
    expect(n).toBeLessThanOrEqual(140)
    expect(asked.count).toBe(1000)
  })
})

describe('nothing to receive spans', () => {
  it('with spanProcessors: [] no span is made: not for requests, queries or the app; metrics still count', async () => {
    await telemetry.shutdown()
    const none = await setupTelemetry({ spanProcessors: [], sampler: counting })
    try {
      const app = createApp({
        ...appConfig,
        routes: {
          r: {
            ...group,
            routes: [
              [
                'GET /probe',
                async () => {
                  await repo.query('SELECT 1')
                  return json({
                    active: trace.getActiveSpan() !== undefined,
                    recording: trace.getTracer('app').startSpan('mine').isRecording(),
                  })
                },
              ],
            ],
          },
        },
      })
      expect(await (await inject(app, '/probe')).json()).toEqual({ active: false, recording: false })
      expect(asked.count).toBe(0)
      expect(await none.metrics()).toMatch(
        /http_server_request_duration_seconds_count\{[^}]*response_status_code="200"[^}]*\} 1/,
      )
    } finally {
      await none.shutdown()
      telemetry = await setupTelemetry({
        spanProcessors: [new SimpleSpanProcessor({ exporter })],
        sampler: counting,
        redactQuery: ['token'],
      })
    }
  })
})

describe('new traces decided by the ratio rule without asking the sampler', () => {
  it("recognises the SDK's samplers by their description, and no other", () => {
    expect(newTraceBound(new ParentBasedSampler({ root: new AlwaysOnSampler() }))).toBe(2 ** 32)
    expect(newTraceBound(new AlwaysOffSampler())).toBe(0)
    expect(newTraceBound(new TraceIdRatioBasedSampler(0.25))).toBe(Math.floor(0.25 * 0xffffffff))
    expect(newTraceBound(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }))).toBe(
      Math.floor(0.1 * 0xffffffff),
    )
    // A subclass keeps the description but may decide otherwise; a sampler of the app's own is asked.
    class Sometimes extends ParentBasedSampler {}
    expect(newTraceBound(new Sometimes({ root: new AlwaysOnSampler() }))).toBeUndefined()
    class OwnRoot extends TraceIdRatioBasedSampler {}
    expect(newTraceBound(new ParentBasedSampler({ root: new OwnRoot(0.5) }))).toBeUndefined()
    expect(newTraceBound({ shouldSample: () => ({ decision: SamplingDecision.RECORD_AND_SAMPLED }) })).toBeUndefined()
    expect(followsParent(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }))).toBe(true)
    expect(followsParent(new TraceIdRatioBasedSampler(0.1))).toBe(false)
    expect(
      followsParent(
        new ParentBasedSampler({ root: new AlwaysOnSampler(), localParentNotSampled: new AlwaysOnSampler() }),
      ),
    ).toBe(false)
    class Always extends AlwaysOnSampler {}
    expect(
      followsParent(new ParentBasedSampler({ root: new AlwaysOnSampler(), remoteParentSampled: new Always() })),
    ).toBe(false)
  })

  it("follows a parent's sampled flag, as the SDK's parent-based sampler does", () => {
    const sampler = new RequestSampler(new ParentBasedSampler({ root: new AlwaysOffSampler() }))
    const sdk = new ParentBasedSampler({ root: new AlwaysOffSampler() })
    for (const [traceFlags, isRemote] of [
      [1, false],
      [0, false],
      [1, true],
      [0, true],
    ] as const) {
      const parent = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags, isRemote }
      const ctx = trace.setSpanContext(ROOT_CONTEXT, parent)
      const expected = sdk.shouldSample(ctx, parent.traceId, 'q', 1, {}, []).decision
      expect(sampler.shouldSample(ctx, parent.traceId, 'q', 1, {}, []).decision).toBe(expected)
      expect(sampler.decide(ctx, 'GET')).toBe(expected === SamplingDecision.RECORD_AND_SAMPLED)
      sampler.settle()
    }
  })

  it("keeps, over 4,000 new traces, those the SDK's ratio sampler keeps, and about the ratio of them", () => {
    const sdk = new TraceIdRatioBasedSampler(0.3)
    const sampler = new RequestSampler(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.3) }))
    let kept = 0
    for (let i = 0; i < 4000; i++) {
      if (!sampler.decide(ROOT_CONTEXT, 'GET')) continue
      kept++
      // What startSpan asks next: the decision made, and the id it was made for.
      expect(sampler.shouldSample(ROOT_CONTEXT, 'x', 'HTTP GET', 1, {}, []).decision).toBe(
        SamplingDecision.RECORD_AND_SAMPLED,
      )
      const traceId = sampler.generateTraceId()
      expect(traceId).toMatch(/^[0-9a-f]{32}$/)
      expect(sdk.shouldSample(ROOT_CONTEXT, traceId).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED)
      sampler.settle()
    }
    // 30 % of 4,000 is 1,200; the standard deviation is 29.
    expect(kept).toBeGreaterThan(1050)
    expect(kept).toBeLessThan(1350)
  })
})
