// The metrics endpoint (spec 4.4) and the HTTP metrics in its exposition (spec 6.2): real requests
// over HTTP (startTestServer) and in-process (inject), then GET /metrics on its own port.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json } from '../server/replies.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import type { TestServer } from '../server/testing/index.ts'
import { inject, startTestServer } from '../server/testing/index.ts'
import type { Telemetry } from './setup.ts'
import { setup } from './setup.ts'
import { MAX_SERVERS } from './instruments.ts'
import { telemetryStreamHandler } from './stream-handler.ts'
import { eventually } from './test-support.ts'
import { strictLog } from '../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

let release: () => void = () => {}
const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['/hello', () => json({ hello: 'world' }), { methods: ['get'] }],
    ['/echo', async (req) => json({ got: await req.readBody() }), { methods: ['post'] }],
    ['/boom', () => { throw new Error('boom') }],
    ['/slow', () => new Promise((resolve) => (release = () => resolve(json({ slow: true }))))],
  ],
}
const app = createApp(
  { bootstrapApplication: 'metrics', server: { streamHandlers: [telemetryStreamHandler, 'default'] }, routes: { r: group } },
  { env: {}, log: logs.log },
)

let telemetry: Telemetry
let server: TestServer
let port: string
beforeAll(async () => {
  telemetry = await setup({ spanProcessors: [], prometheus: { port: 0, host: '127.0.0.1' } })
  server = await startTestServer(app)
  port = String(new URL(server.url).port)
})
afterAll(async () => {
  await server.close({ timeoutMs: 1000 })
  await telemetry.shutdown()
})

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

async function scrape(): Promise<Sample[]> {
  const res = await fetch(telemetry.prometheusUrl!)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  const samples: Sample[] = []
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) continue
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)) labels[k!] = v!
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return samples
}

const one = (samples: Sample[], name: string, labels: Record<string, string>) => {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1)
  return found[0]!
}

const overHttp = () => ({ method: 'GET', scheme: 'http', server_address: '127.0.0.1', server_port: port })

it('counts requests by method, scheme, server address and port, and status', async () => {
  for (let i = 0; i < 2; i++) expect(await (await server.request('/hello')).text()).toBe('{"hello":"world"}')
  expect((await inject(app, '/hello')).status).toBe(200)
  await (await inject(app, '/hello')).text() // the in-process response is finished once its body is read
  logs.expectLogged(/^500 on GET \/boom .*: Error: boom$/)
  expect((await server.request('/boom')).status).toBe(500)
  expect((await server.request('/missing')).status).toBe(404)
  expect((await server.request({ url: '/hello', method: 'PROPFIND' })).status).toBe(405)

  const ok = { ...overHttp(), response_status_code: '200' }
  const samples = await eventually(async () => {
    const s = await scrape()
    return s.some((x) => x.name === 'http_server_request_duration_seconds_count' && x.labels.method === '_OTHER') ? s : undefined
  })
  const count = one(samples!, 'http_server_request_duration_seconds_count', ok)
  expect(Object.keys(count.labels).sort()).toEqual(['method', 'response_status_code', 'scheme', 'server_address', 'server_port'])
  expect(count.value).toBe(2)
  expect(one(samples!, 'http_server_request_duration_seconds_bucket', { ...ok, le: '+Inf' }).value).toBe(2)
  const sum = one(samples!, 'http_server_request_duration_seconds_sum', ok).value
  expect(sum).toBeGreaterThan(0)
  expect(sum).toBeLessThan(5)
  const buckets = samples!.filter((s) => s.name === 'http_server_request_duration_seconds_bucket' && s.labels.response_status_code === '200' && s.labels.server_port === port)
  expect(buckets.length).toBeGreaterThan(5)
  expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b))

  // inject: the in-process request's URL is http://localhost/...; only the body-read one has finished.
  const inProcess = { method: 'GET', scheme: 'http', server_address: 'localhost', server_port: '80', response_status_code: '200' }
  expect(one(samples!, 'http_server_request_duration_seconds_count', inProcess).value).toBe(1)
  expect(one(samples!, 'http_server_request_duration_seconds_count', { ...overHttp(), response_status_code: '500' }).value).toBe(1)
  expect(one(samples!, 'http_server_request_duration_seconds_count', { ...overHttp(), response_status_code: '404' }).value).toBe(1)
  expect(one(samples!, 'http_server_request_duration_seconds_count', { ...overHttp(), method: '_OTHER', response_status_code: '405' }).value).toBe(1)
  expect(one(samples!, 'http_server_response_body_size_bytes_sum', ok).value).toBe(2 * '{"hello":"world"}'.length)
  expect(one(samples!, 'http_server_request_body_size_bytes_sum', ok).value).toBe(0)
})

it('active requests: up while a request is in flight, down when it has been answered', async () => {
  const active = async () => one(await scrape(), 'http_server_active_requests', overHttp())
  const pending = server.request('/slow')
  const during = await eventually(async () => ((await scrape()).some((s) => s.name === 'http_server_active_requests' && s.labels.server_port === port && s.value === 1) ? true : undefined))
  expect(during).toBe(true)
  const sample = await active()
  expect(Object.keys(sample.labels).sort()).toEqual(['method', 'scheme', 'server_address', 'server_port'])
  expect(sample.value).toBe(1)
  release()
  expect(await (await pending).json()).toEqual({ slow: true })
  expect(await eventually(async () => ((await active()).value === 0 ? true : undefined))).toBe(true)
})

it('request and response body sizes in bytes', async () => {
  const body = 'héllo wörld'
  const res = await server.request({ url: '/echo', method: 'POST', body, headers: { 'content-type': 'text/plain' } })
  const text = await res.text()
  const labels = { ...overHttp(), method: 'POST', response_status_code: '200' }
  const samples = await eventually(async () => {
    const s = await scrape()
    return s.some((x) => x.name === 'http_server_request_body_size_bytes_count' && x.labels.method === 'POST') ? s : undefined
  })
  expect(one(samples!, 'http_server_request_body_size_bytes_sum', labels).value).toBe(Buffer.byteLength(body))
  expect(one(samples!, 'http_server_response_body_size_bytes_sum', labels).value).toBe(Buffer.byteLength(text))
})

it('made-up Host headers cannot grow the exposition without bound: past the cap they share one series', async () => {
  const before = (await scrape()).filter((s) => s.name === 'http_server_active_requests').length
  for (let i = 0; i < MAX_SERVERS + 50; i++) {
    const res = await inject(app, { url: `http://h${i}.invalid/hello` })
    await res.text()
  }
  const samples = await scrape()
  const gauges = samples.filter((s) => s.name === 'http_server_active_requests')
  expect(gauges.length).toBe(MAX_SERVERS + 1)
  const other = one(samples, 'http_server_request_duration_seconds_count', { method: 'GET', server_address: '_OTHER', server_port: '0', response_status_code: '200' })
  // The series already made before this test, then the first new hosts, took the kept places.
  expect(other.value).toBe(before + 50)
})

it('the metrics server answers only GET /metrics', async () => {
  const base = new URL(telemetry.prometheusUrl!)
  expect(base.pathname).toBe('/metrics')
  expect((await fetch(new URL('/', base))).status).toBe(404)
  expect((await fetch(new URL('/metricsx', base))).status).toBe(404)
  expect((await fetch(base, { method: 'POST' })).status).toBe(405)
  expect(await telemetry.metrics()).toContain('# TYPE http_server_request_duration_seconds histogram')
})
