// The cheap series must expose exactly what prom-client's own metrics expose for the same
// observations: the same text, line for line.
import type { OpenMetricsContentType } from 'prom-client'
import { Gauge, Histogram, Registry } from 'prom-client'
import { afterEach, expect, it, vi } from 'vitest'
import { openMetricsText } from './exposition.ts'
import { GaugeMetric, HistogramMetric } from './series.ts'

afterEach(() => vi.useRealTimers())

const bounds = [0, 0.005, 0.1, 1, 10]
const labelNames = ['method', 'server_port', 'response_status_code'] as const

it('a histogram gives the same exposition as prom-client’s Histogram (bounds inclusive, +Inf, sums, counts)', async () => {
  const theirs = new Registry()
  const ours = new Registry()
  const reference = new Histogram({
    name: 'h_seconds',
    help: 'Help "quoted" \\ text.',
    labelNames,
    buckets: bounds,
    registers: [theirs],
  })
  const fast = new HistogramMetric('h_seconds', 'Help "quoted" \\ text.', bounds, ours)
  const observations: Array<[Record<(typeof labelNames)[number], string | number>, number]> = [
    [{ method: 'GET', server_port: 8080, response_status_code: 200 }, 0],
    [{ method: 'GET', server_port: 8080, response_status_code: 200 }, 0.005],
    [{ method: 'GET', server_port: 8080, response_status_code: 200 }, 0.0051],
    [{ method: 'GET', server_port: 8080, response_status_code: 200 }, 42],
    [{ method: 'POST', server_port: 8080, response_status_code: 500 }, 1],
    [{ method: 'POST', server_port: 8080, response_status_code: 500 }, 0.25],
    [{ method: 'GET', server_port: 8080, response_status_code: 200 }, 10],
  ]
  for (const [labels, value] of observations) {
    reference.observe(labels, value)
    fast.series(JSON.stringify(labels), labels).observe(value)
  }
  expect(await ours.metrics()).toBe(await theirs.metrics())
})

it('a gauge gives the same exposition as prom-client’s Gauge', async () => {
  const theirs = new Registry()
  const ours = new Registry()
  const reference = new Gauge({ name: 'g', help: 'Active.', labelNames: ['method'], registers: [theirs] })
  const fast = new GaugeMetric('g', 'Active.', ours)
  for (const [method, delta] of [
    ['GET', 1],
    ['GET', 1],
    ['POST', 1],
    ['GET', -1],
  ] as const) {
    reference.inc({ method }, delta)
    fast.series(method, { method }).value += delta
  }
  expect(await ours.metrics()).toBe(await theirs.metrics())
})

const trace = (n: number) => ({ traceId: n.toString(16).padStart(32, '0'), spanId: n.toString(16).padStart(16, '0') })

it('with traces: the same OpenMetrics text as prom-client’s exemplar-enabled Histogram (latest per bucket, +Inf included)', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  const theirs = new Registry<OpenMetricsContentType>()
  theirs.setContentType(Registry.OPENMETRICS_CONTENT_TYPE)
  const ours = new Registry()
  // Typed with any label names: prom-client types exemplar labels as the metric's own label names.
  const reference = new Histogram<string>({
    name: 'd_seconds',
    help: 'Durations.',
    labelNames,
    buckets: bounds,
    registers: [theirs],
    enableExemplars: true,
  })
  const fast = new HistogramMetric('d_seconds', 'Durations.', bounds, ours)
  const labels = { method: 'GET', server_port: 8080, response_status_code: 200 }
  const observations: Array<[number, number | undefined]> = [
    [0.004, 1],
    [0.003, 2],
    [0.05, undefined],
    [0.07, 3],
    [0.5, undefined],
    [42, 4],
    [0, 5],
  ]
  let now = Date.UTC(2026, 10, 27, 1, 2, 3, 456)
  for (const [value, n] of observations) {
    vi.setSystemTime((now += 1001))
    if (n === undefined) {
      reference.observe({ labels, value })
      fast.series('k', labels).observe(value)
      continue
    }
    const { traceId, spanId } = trace(n)
    reference.observe({ labels, value, exemplarLabels: { trace_id: traceId, span_id: spanId } })
    fast.series('k', labels).observe(value, trace(n))
  }
  const text = await openMetricsText(await ours.getMetricsAsJSON())
  expect(text).toBe(await theirs.metrics())
  // The second observation in the (0.005]-bucket replaced the first; 0.5 (no trace) left 0.07's.
  expect(text).toContain(
    `d_seconds_bucket{le="0.005",method="GET",server_port="8080",response_status_code="200"} 3 # {trace_id="${trace(2).traceId}",span_id="${trace(2).spanId}"} 0.003 `,
  )
  expect(text).not.toContain(trace(1).traceId)
  expect(text).toContain(
    `le="+Inf",method="GET",server_port="8080",response_status_code="200"} 7 # {trace_id="${trace(4).traceId}"`,
  )
  // The Prometheus text of the same registry prints no exemplar.
  expect(await ours.metrics()).not.toContain('trace_id')
})
