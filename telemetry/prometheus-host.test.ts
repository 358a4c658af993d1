// Where the metrics endpoint listens: it has no authentication, so by default only this machine
// reaches it (127.0.0.1); `host` (or OTEL_EXPORTER_PROMETHEUS_HOST) opens it. "Reached from
// elsewhere" is checked on a non-loopback address of this machine, the one another host on its
// network would use; without one the machine has no network to be exposed to, and those assertions
// are skipped.
import { networkInterfaces } from 'node:os'
import { afterEach, expect, it } from 'vitest'
import { DEFAULT_PROMETHEUS_HOST, servePrometheus, type MetricsSource, type PrometheusServer } from './prometheus.ts'
import { setupTelemetry, type Telemetry } from './setup.ts'

/** An IPv4 address of this machine that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address

const source: MetricsSource = { metrics: async () => 'up 1\n' }
const portOf = (url: string) => new URL(url).port

/** The status of GET /metrics at `address`, or the connection error's code. */
async function scrape(address: string, port: string): Promise<number | string> {
  try {
    return (await fetch(`http://${address}:${port}/metrics`, { signal: AbortSignal.timeout(10_000) })).status
  } catch (err) {
    return String((err as { cause?: { code?: string } }).cause?.code ?? err)
  }
}

let closing: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closing.map((close) => close()))
  closing = []
})
const serve = async (...args: Parameters<typeof servePrometheus>): Promise<PrometheusServer> => {
  const server = await servePrometheus(...args)
  closing.push(() => server.close())
  return server
}

it('setupTelemetry({ prometheus: { port } }) listens on 127.0.0.1 only: reached from this machine, refused on its other addresses', async () => {
  expect(process.env.OTEL_EXPORTER_PROMETHEUS_HOST, 'this test needs the variable unset').toBeUndefined()
  const telemetry: Telemetry = await setupTelemetry({ spanProcessors: [], prometheus: { port: 0 } })
  closing.push(() => telemetry.shutdown())
  const port = portOf(telemetry.prometheusUrl!)
  expect(await scrape('127.0.0.1', port)).toBe(200)
  if (outside) expect(await scrape(outside, port)).toBe('ECONNREFUSED')
  expect(telemetry.prometheusUrl).toBe(`http://127.0.0.1:${port}/metrics`)
  expect(DEFAULT_PROMETHEUS_HOST).toBe('127.0.0.1')
})

it.skipIf(!outside)("host: '0.0.0.0' opens it on every interface", async () => {
  const server = await serve(source, { port: 0, host: '0.0.0.0' }, {})
  const port = portOf(server.url)
  expect(await scrape(outside!, port)).toBe(200)
  expect(await scrape('127.0.0.1', port)).toBe(200)
})

it.skipIf(!outside)(
  'without the option, OTEL_EXPORTER_PROMETHEUS_HOST says where (a deployment opens it without a code change); the option wins',
  async () => {
    const opened = await serve(source, { port: 0 }, { OTEL_EXPORTER_PROMETHEUS_HOST: '0.0.0.0' })
    expect(await scrape(outside!, portOf(opened.url))).toBe(200)
    const kept = await serve(source, { port: 0, host: '127.0.0.1' }, { OTEL_EXPORTER_PROMETHEUS_HOST: '0.0.0.0' })
    expect(await scrape(outside!, portOf(kept.url))).toBe('ECONNREFUSED')
  },
)
