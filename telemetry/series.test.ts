// The cheap series must expose exactly what prom-client's own metrics expose for the same
// observations: the same text, line for line.
import { Gauge, Histogram, Registry } from 'prom-client'
import { expect, it } from 'vitest'
import { GaugeMetric, HistogramMetric } from './series.ts'

const bounds = [0, 0.005, 0.1, 1, 10]
const labelNames = ['method', 'server_port', 'response_status_code'] as const

it('a histogram gives the same exposition as prom-client’s Histogram (bounds inclusive, +Inf, sums, counts)', async () => {
  const theirs = new Registry()
  const ours = new Registry()
  const reference = new Histogram({ name: 'h_seconds', help: 'Help "quoted" \\ text.', labelNames, buckets: bounds, registers: [theirs] })
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
  for (const [method, delta] of [['GET', 1], ['GET', 1], ['POST', 1], ['GET', -1]] as const) {
    reference.inc({ method }, delta)
    fast.series(method, { method }).value += delta
  }
  expect(await ours.metrics()).toBe(await theirs.metrics())
})
