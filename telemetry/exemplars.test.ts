// Exemplars on the duration histogram: GET /metrics answers OpenMetrics when the scraper's Accept
// asks for it, and there a sampled request's trace is the exemplar of its duration's bucket.
// Real requests over HTTP with spans kept in memory (parent-based sampling: a `traceparent`
// marked unsampled makes the request unsampled).
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace'
import { Counter } from 'prom-client'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import type { TestServer } from '../server/testing/index.ts'
import { startTestServer } from '../server/testing/index.ts'
import { strictLog } from '../test/support/logs.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { until } from '../test/support/until.ts'
import { finishedSpans } from './test-support.ts'

const logs = strictLog()

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /items/:id', (req) => json({ id: req.bindings.id })],
    ['GET /quiet', () => json({ quiet: true })],
  ],
}
const app = createApp(
  {
    bootstrapApplication: 'exemplars',
    server: { port: 8123, streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: group },
  },
  { env: {}, log: logs.log },
)

/** What Prometheus 2.x sends when it scrapes (OpenMetrics preferred, the text format accepted). */
const PROMETHEUS_ACCEPT =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
const OPENMETRICS = 'application/openmetrics-text; version=1.0.0; charset=utf-8'
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8'

const exporter = new InMemorySpanExporter()
let telemetry: Telemetry
let server: TestServer
beforeAll(async () => {
  telemetry = await setupTelemetry({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    prometheus: { port: 0, host: '127.0.0.1' },
  })
  server = await startTestServer(app)
})
afterAll(async () => {
  await server.close({ timeoutMs: 1000 })
  await telemetry.shutdown()
})
beforeEach(() => exporter.reset())

/** Scrapes until `ready` holds for the text (a request is recorded once its answer has been sent). */
async function scrapeUntil(
  what: string,
  accept: string | undefined,
  ready: (text: string) => boolean,
): Promise<Awaited<ReturnType<typeof scrape>>> {
  let last: Awaited<ReturnType<typeof scrape>> | undefined
  await until(what, async () => ready((last = await scrape(accept)).text), 10_000)
  return last!
}

async function scrape(accept?: string): Promise<{ contentType: string | null; vary: string | null; text: string }> {
  const res = await fetch(telemetry.prometheusUrl!, { headers: accept === undefined ? {} : { accept } })
  expect(res.status).toBe(200)
  return { contentType: res.headers.get('content-type'), vary: res.headers.get('vary'), text: await res.text() }
}

interface Bucket {
  readonly le: string
  readonly labels: string
  readonly count: number
  readonly exemplar?: { readonly labels: Record<string, string>; readonly value: number; readonly timestamp: number }
}

/** The duration histogram's bucket lines of the series whose labels include `label` (`http_route="/quiet"`). */
function buckets(text: string, label: string): Bucket[] {
  const out: Bucket[] = []
  for (const m of text.matchAll(
    /^http_server_request_duration_seconds_bucket\{([^}]*)\} (\S+)(?: # \{([^}]*)\} (\S+) (\S+))?$/gm,
  )) {
    if (!m[1]!.split(',').includes(label)) continue
    const le = /le="([^"]*)"/.exec(m[1]!)![1]!
    const exemplar =
      m[3] === undefined
        ? undefined
        : {
            labels: Object.fromEntries([...m[3].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!])),
            value: Number(m[4]),
            timestamp: Number(m[5]),
          }
    out.push({ le, labels: m[1]!, count: Number(m[2]), ...(exemplar && { exemplar }) })
  }
  return out
}

/** The `_count` of the series whose labels include `label`, in either format. */
function countOf(text: string, label: string): number | undefined {
  for (const m of text.matchAll(/^http_server_request_duration_seconds_count\{([^}]*)\} (\S+)/gm))
    if (m[1]!.split(',').includes(label)) return Number(m[2])
  return undefined
}

it("a sampled request's trace id is the exemplar on its duration's bucket, on its route's series", async () => {
  const before = Date.now() / 1000
  expect(await (await server.request('/items/42')).json()).toEqual({ id: '42' })
  const [span] = await finishedSpans(exporter, 1)
  expect(span, 'the request span').toBeDefined()
  const { traceId, spanId } = span!.spanContext()

  const { contentType, vary, text } = await scrapeUntil(
    'the request recorded',
    PROMETHEUS_ACCEPT,
    (t) => countOf(t, 'http_route="/items/:id"') === 1,
  )
  expect(contentType).toBe(OPENMETRICS)
  expect(vary).toBe('accept')
  expect(text.endsWith('\n# EOF\n')).toBe(true)

  const lines = buckets(text, 'http_route="/items/:id"')
  expect(lines.map((b) => b.le)).toEqual([
    '0.005',
    '0.01',
    '0.025',
    '0.05',
    '0.075',
    '0.1',
    '0.25',
    '0.5',
    '0.75',
    '1',
    '2.5',
    '5',
    '7.5',
    '10',
    '+Inf',
  ])
  const withExemplar = lines.filter((b) => b.exemplar)
  expect(withExemplar, 'one bucket carries the exemplar').toHaveLength(1)
  const bucket = withExemplar[0]!
  expect(bucket.exemplar!.labels).toEqual({ trace_id: traceId, span_id: spanId })
  // The right bucket: the first whose bound holds the observed duration, where the count first rises.
  const value = bucket.exemplar!.value
  const index = lines.indexOf(bucket)
  expect(value).toBeGreaterThan(0)
  expect(value <= Number(bucket.le === '+Inf' ? Infinity : bucket.le)).toBe(true)
  if (index > 0) expect(value > Number(lines[index - 1]!.le)).toBe(true)
  expect(bucket.count).toBe(1)
  if (index > 0) expect(lines[index - 1]!.count).toBe(0)
  // The observed value is the request's duration, which encloses its span's; the timestamp, the span's end.
  const spanSeconds = span!.duration[0] + span!.duration[1] / 1e9
  expect(value).toBeGreaterThanOrEqual(spanSeconds - 0.001)
  expect(value).toBeLessThan(spanSeconds + 1)
  expect(bucket.exemplar!.timestamp).toBeCloseTo(span!.endTime[0] + span!.endTime[1] / 1e9, 3)
  expect(bucket.exemplar!.timestamp).toBeGreaterThan(before - 1)
  expect(bucket.exemplar!.timestamp).toBeLessThan(Date.now() / 1000 + 1)
  // The trace is on this series only: not on the body-size histograms, nor any other line.
  expect(text.split('\n').filter((l) => l.includes(traceId))).toEqual([
    expect.stringMatching(/^http_server_request_duration_seconds_bucket\{/),
  ])
})

it('keeps at most one exemplar per bucket: the latest request is one, and every one is a request’s own bucket', async () => {
  const traces: string[] = []
  for (let i = 0; i < 5; i++) {
    await (await server.request(`/items/${i}`)).text()
    const spans = await finishedSpans(exporter, i + 1)
    traces.push(spans[i]!.spanContext().traceId)
  }
  const { text } = await scrapeUntil(
    'the requests recorded',
    PROMETHEUS_ACCEPT,
    (t) => countOf(t, 'http_route="/items/:id"') === 6,
  )
  const lines = buckets(text, 'http_route="/items/:id"')
  const withExemplar = lines.filter((b) => b.exemplar)
  expect(withExemplar.length).toBeGreaterThanOrEqual(1)
  expect(withExemplar.map((b) => b.exemplar!.labels.trace_id)).toContain(traces.at(-1))
  for (const b of withExemplar) {
    const index = lines.indexOf(b)
    // Only buckets something fell into (the count rises there), and at the bound that holds the value.
    expect(b.count).toBeGreaterThan(index > 0 ? lines[index - 1]!.count : 0)
    expect(b.exemplar!.value <= Number(b.le === '+Inf' ? Infinity : b.le)).toBe(true)
    if (index > 0) expect(b.exemplar!.value > Number(lines[index - 1]!.le)).toBe(true)
  }
})

it('an unsampled request adds no exemplar', async () => {
  const unsampledTrace = '4bf92f3577b34da6a3ce929d0e0e4736'
  const res = await server.request({
    url: '/quiet',
    headers: { traceparent: `00-${unsampledTrace}-00f067aa0ba902b7-00` },
  })
  expect(await res.json()).toEqual({ quiet: true })
  const { text } = await scrapeUntil(
    'the request recorded',
    PROMETHEUS_ACCEPT,
    (t) => countOf(t, 'http_route="/quiet"') === 1,
  )
  expect(exporter.getFinishedSpans()).toEqual([])
  // The OpenMetrics text, where exemplars would be: none on the request's series.
  expect(text.endsWith('\n# EOF\n')).toBe(true)
  const lines = buckets(text, 'http_route="/quiet"')
  expect(lines).toHaveLength(15)
  expect(lines.at(-1)!.count).toBe(1)
  expect(lines.filter((b) => b.exemplar)).toEqual([])
  expect(text).not.toContain(unsampledTrace)
})

it('the content type follows Accept: OpenMetrics when preferred, the Prometheus text format otherwise', async () => {
  const cases: Array<[string | undefined, string]> = [
    [PROMETHEUS_ACCEPT, OPENMETRICS],
    ['application/openmetrics-text', OPENMETRICS],
    ['application/openmetrics-text; version=1.0.0', OPENMETRICS],
    // Prometheus 3 with `scrape_protocols` listing the protobuf format first: OpenMetrics is the best offered.
    [
      'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.6,application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3',
      OPENMETRICS,
    ],
    [undefined, PROMETHEUS_TEXT],
    ['*/*', PROMETHEUS_TEXT],
    ['text/plain', PROMETHEUS_TEXT],
    ['text/plain;version=0.0.4;q=1,application/openmetrics-text;version=1.0.0;q=0.5', PROMETHEUS_TEXT],
    ['application/json', PROMETHEUS_TEXT],
  ]
  for (const [accept, expected] of cases) {
    const { contentType, text } = await scrape(accept)
    expect(contentType, `Accept: ${accept}`).toBe(expected)
    expect(text.endsWith('# EOF\n'), `Accept: ${accept}`).toBe(expected === OPENMETRICS)
  }
  const head = await fetch(telemetry.prometheusUrl!, { method: 'HEAD', headers: { accept: PROMETHEUS_ACCEPT } })
  expect(head.headers.get('content-type')).toBe(OPENMETRICS)
  expect(await telemetry.metrics('openmetrics')).toMatch(/# EOF\n$/)
})

it('the Prometheus text format is unchanged: no exemplars, and counters keep their `_total` after an OpenMetrics scrape', async () => {
  const jobs = new Counter({ name: 'exemplar_test_jobs_total', help: 'Jobs.', registers: [telemetry.registry] })
  jobs.inc(3)
  await (await server.request('/items/7')).text()
  await finishedSpans(exporter, 1)
  const { text: open } = await scrapeUntil('an exemplar', PROMETHEUS_ACCEPT, (t) =>
    buckets(t, 'http_route="/items/:id"').some((b) => b.exemplar),
  )
  // OpenMetrics names the counter family without `_total`, its sample with it.
  expect(open).toContain('# TYPE exemplar_test_jobs counter\nexemplar_test_jobs_total 3\n')
  const plain = await scrape()
  expect(plain.contentType).toBe(PROMETHEUS_TEXT)
  expect(plain.text).toBe(await telemetry.registry.metrics())
  expect(plain.text).toContain('# TYPE exemplar_test_jobs_total counter\nexemplar_test_jobs_total 3\n')
  expect(plain.text).not.toContain(' # {')
  expect(plain.text).not.toContain('trace_id')
  expect(plain.text).not.toContain('# EOF')
  // The same values in both: the OpenMetrics text is the plain one plus exemplars and `# EOF`.
  const samples = (t: string) =>
    t
      .split('\n')
      .filter((l) => l.startsWith('http_server_'))
      .map((l) => l.replace(/ # \{.*$/, ''))
  expect(samples(open)).toEqual(samples(plain.text))
  telemetry.registry.removeSingleMetric('exemplar_test_jobs_total')
})
