// One /metrics for a cluster (cluster-metrics.ts), in the test process: a worker's side answering
// over a fake IPC channel, the primary's side summing fake workers' registries (real prom-client
// registries), and setupTelemetry() in a primary serving the sum. With real processes:
// test/cluster/workers.test.ts.
import { EventEmitter } from 'node:events'
import type { Worker } from 'node:cluster'
import { Counter, Gauge, Registry } from 'prom-client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setClusterRole } from '../server/cluster/role.ts'
import { FakeWorker } from '../test/support/cluster-fakes.ts'
import type { MetricsMessage, PrimaryLink, WorkerHub } from './cluster-metrics.ts'
import { clusterMetrics, reportToPrimary } from './cluster-metrics.ts'
import { HistogramMetric } from './series.ts'
import { setupTelemetry } from './setup.ts'

afterEach(() => {
  setClusterRole(undefined)
  vi.useRealTimers()
})

function registryCounting(name: string, counts: Record<string, number>): Registry {
  const registry = new Registry()
  const counter = new Counter({ name, help: `${name} help`, labelNames: ['route'], registers: [registry] })
  for (const [route, n] of Object.entries(counts)) counter.inc({ route }, n)
  return registry
}

function fakeLink() {
  const emitter = new EventEmitter()
  const sent: MetricsMessage[] = []
  const link: PrimaryLink = {
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    send: (message) => (sent.push(message), emitter.emit('sent', message), true),
  }
  const answered = () => new Promise<MetricsMessage>((resolve) => emitter.once('sent', resolve))
  return { link, sent, emitter, answered }
}

describe('a worker reporting to the primary', () => {
  it('says it reports, answers each request with its registry, stops when told', async () => {
    const { link, sent, emitter, answered } = fakeLink()
    const stop = reportToPrimary(registryCounting('jobs_total', { a: 2 }), link)
    expect(sent).toEqual([{ vela: 'metrics-reporting' }])
    emitter.emit('message', { vela: 'something else' })
    emitter.emit('message', { vela: 'metrics-request', id: 4 })
    const answer = (await answered()) as Extract<MetricsMessage, { vela: 'metrics' }>
    expect(answer.id).toBe(4)
    expect(answer.metrics).toEqual([
      expect.objectContaining({
        name: 'jobs_total',
        values: [expect.objectContaining({ value: 2, labels: { route: 'a' } })],
      }),
    ])
    stop()
    expect(sent.at(-1)).toEqual({ vela: 'metrics-stopped' })
    expect(emitter.listenerCount('message')).toBe(0)
  })

  it('a registry that fails to collect: the answer carries the error', async () => {
    const registry = new Registry()
    new Gauge({
      name: 'broken',
      help: 'x',
      registers: [registry],
      collect: () => Promise.reject(new Error('collector down')),
    })
    const { link, emitter, answered } = fakeLink()
    reportToPrimary(registry, link)
    emitter.emit('message', { vela: 'metrics-request', id: 1 })
    expect(await answered()).toEqual({ vela: 'metrics', id: 1, error: 'collector down' })
  })
})

describe("the primary's sum", () => {
  function hubOf(...registries: (Registry | 'silent' | 'failing')[]) {
    const hub = new EventEmitter() as EventEmitter & { workers: NodeJS.Dict<Worker> }
    hub.workers = {}
    const workers = registries.map((registry, i) => {
      const w = new FakeWorker(i + 1, {})
      hub.workers[w.id] = w as unknown as Worker
      w.on('sent', (m: { id: number }) => {
        if (registry === 'silent') return
        if (registry === 'failing') return void hub.emit('message', w, { vela: 'metrics', id: m.id, error: 'boom' })
        // Through JSON, as node:cluster's IPC channel carries it.
        void registry.getMetricsAsJSON().then((metrics) =>
          hub.emit('message', w, {
            vela: 'metrics',
            id: m.id,
            metrics: JSON.parse(JSON.stringify(metrics)) as unknown,
          }),
        )
      })
      return w
    })
    const reports = (w: FakeWorker) => hub.emit('message', w, { vela: 'metrics-reporting' })
    return { hub: hub as unknown as WorkerHub & EventEmitter, workers, reports }
  }

  it("adds up the reporting workers' registries and its own; asks no worker that does not report", async () => {
    const own = registryCounting('primary_things_total', { x: 1 })
    const { hub, workers, reports } = hubOf(
      registryCounting('requests_total', { a: 3, b: 1 }),
      registryCounting('requests_total', { a: 4 }),
      registryCounting('requests_total', { a: 100 }),
    )
    const [w1, w2, w3] = workers as [FakeWorker, FakeWorker, FakeWorker]
    const sum = clusterMetrics(own, 1000, hub)
    reports(w1)
    reports(w2)
    const text = await sum.metrics()
    expect(text).toContain('requests_total{route="a"} 7')
    expect(text).toContain('requests_total{route="b"} 1')
    expect(text).toContain('primary_things_total{route="x"} 1')
    expect(w3.sent).toEqual([])

    // A worker that stopped reporting, or that is gone, is no longer asked.
    hub.emit('message', w2, { vela: 'metrics-stopped' })
    expect(await sum.metrics()).toContain('requests_total{route="a"} 3')
    sum.close()
    expect(hub.listenerCount('message')).toBe(0)
  })

  it('OpenMetrics: histogram buckets summed, each keeping the most recent exemplar any worker had on it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const trace = (n: number) => ({ traceId: String(n).repeat(32), spanId: String(n).repeat(16) })
    // Values exact in binary, so the sum prints exactly.
    const histogramOf = (registry: Registry) =>
      new HistogramMetric('d_seconds', 'Durations.', [0.1, 1], registry).series('k', { route: '/a' })
    const [r1, r2] = [new Registry(), new Registry()]
    const [h1, h2] = [histogramOf(r1), histogramOf(r2)]
    const at = (seconds: number) => vi.setSystemTime(seconds * 1000)
    at(1000), h1.observe(0.0625, trace(1))
    at(1001), h2.observe(0.5, trace(2))
    at(1002), h2.observe(0.078125, trace(3))
    at(1003), h1.observe(0.75, trace(4))
    h1.observe(0.03125) // no trace: leaves the bucket's exemplar as it was
    const { hub, workers, reports } = hubOf(r1, r2)
    const sum = clusterMetrics(new Registry(), 1000, hub)
    for (const w of workers) reports(w)
    const text = await sum.metrics('openmetrics')
    expect(text).toBe(
      [
        '# HELP d_seconds Durations.',
        '# TYPE d_seconds histogram',
        `d_seconds_bucket{le="0.1",route="/a"} 3 # {trace_id="${trace(3).traceId}",span_id="${trace(3).spanId}"} 0.078125 1002`,
        `d_seconds_bucket{le="1",route="/a"} 5 # {trace_id="${trace(4).traceId}",span_id="${trace(4).spanId}"} 0.75 1003`,
        'd_seconds_bucket{le="+Inf",route="/a"} 5',
        'd_seconds_sum{route="/a"} 1.421875',
        'd_seconds_count{route="/a"} 5',
        '# EOF',
        '',
      ].join('\n'),
    )
    // The Prometheus text of the same sum: no exemplars.
    expect(await sum.metrics()).toContain('d_seconds_bucket{le="0.1",route="/a"} 3\n')
    expect(await sum.metrics()).not.toContain('trace_id')
    sum.close()
  })

  it('a worker that exits or disconnects during a scrape is left out; one that answers with an error, or not at all, fails it', async () => {
    const own = new Registry()
    const { hub, workers, reports } = hubOf('silent', registryCounting('requests_total', { a: 4 }), 'failing')
    const [silent, w2, failing] = workers as [FakeWorker, FakeWorker, FakeWorker]
    const sum = clusterMetrics(own, 100, hub)
    reports(silent)
    reports(w2)
    const scrape = sum.metrics()
    await new Promise((resolve) => silent.once('sent', resolve))
    hub.emit('exit', silent)
    expect(await scrape).toContain('requests_total{route="a"} 4')

    reports(silent)
    const late = sum.metrics()
    await expect(late).rejects.toThrow('no metrics from worker 1 within 100 ms')
    hub.emit('disconnect', silent)

    reports(failing)
    await expect(sum.metrics()).rejects.toThrow('worker 3: boom')
    sum.close()
  })
})

it('setupTelemetry() in the primary serves the sum on /metrics (no worker yet: its own registry)', async () => {
  setClusterRole({ role: 'primary', id: 0, workers: 2 })
  const telemetry = await setupTelemetry({ spanProcessors: [], prometheus: { port: 0, host: '127.0.0.1' } })
  try {
    const res = await fetch(telemetry.prometheusUrl!)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram')
    expect(await telemetry.metrics()).toBe(text)
  } finally {
    await telemetry.shutdown()
  }
})
