// The app's own OpenTelemetry metrics on /metrics: recorded through the global API after setupTelemetry(),
// served next to Vela's HTTP metrics with Prometheus names; nothing invented before data.
import { metrics } from '@opentelemetry/api'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'

let telemetry: Telemetry
beforeAll(async () => {
  telemetry = await setupTelemetry({ spanProcessors: [], prometheus: { port: 0, host: '127.0.0.1' } })
})
afterAll(() => telemetry.shutdown())

const scrape = async () => {
  const res = await fetch(telemetry.prometheusUrl!)
  expect(res.status).toBe(200)
  return res.text()
}

it('before any request or recording, /metrics answers the HELP and TYPE lines only', async () => {
  const lines = (await scrape()).split('\n').filter(Boolean)
  expect(lines.length).toBeGreaterThan(0)
  expect(lines.filter((l) => !l.startsWith('# HELP ') && !l.startsWith('# TYPE '))).toEqual([])
})

it('counters, up-down counters and histograms the app records through the OpenTelemetry API are on /metrics', async () => {
  const meter = metrics.getMeter('shop')
  const orders = meter.createCounter('shop.orders', { description: 'Orders placed.' })
  const queue = meter.createUpDownCounter('shop.queue.depth', { unit: '{job}', description: 'Jobs waiting.' })
  const latency = meter.createHistogram('shop.payment.duration', {
    unit: 's',
    description: 'Payment calls.',
    advice: { explicitBucketBoundaries: [0.1, 1] },
  })
  orders.add(2, { 'shop.channel': 'web' })
  orders.add(1, { 'shop.channel': 'app' })
  queue.add(5)
  queue.add(-2)
  latency.record(0.05)
  latency.record(0.5)

  const text = await scrape()
  expect(text).toContain('# HELP shop_orders_total Orders placed.\n# TYPE shop_orders_total counter\n')
  expect(text).toContain('shop_orders_total{shop_channel="web"} 2\n')
  expect(text).toContain('shop_orders_total{shop_channel="app"} 1\n')
  expect(text).toContain('# TYPE shop_queue_depth gauge\nshop_queue_depth 3\n')
  expect(text).toContain('# TYPE shop_payment_duration_seconds histogram\n')
  expect(text).toContain('shop_payment_duration_seconds_bucket{le="0.1"} 1\n')
  expect(text).toContain('shop_payment_duration_seconds_bucket{le="1"} 2\n')
  expect(text).toContain('shop_payment_duration_seconds_bucket{le="+Inf"} 2\n')
  expect(text).toContain('shop_payment_duration_seconds_count 2\n')
  // Vela's HTTP metrics are still there, once.
  expect(text.match(/^# TYPE http_server_request_duration_seconds histogram$/gm)).toHaveLength(1)

  orders.add(4, { 'shop.channel': 'web' })
  expect(await scrape()).toContain('shop_orders_total{shop_channel="web"} 6\n')
  // The JSON a cluster worker sends its primary holds them as well.
  const json = await telemetry.registry.getMetricsAsJSON()
  expect(
    json
      .find((m) => m.name === 'shop_orders_total')
      ?.values.map((v) => v.value)
      .sort(),
  ).toEqual([1, 6])
})
