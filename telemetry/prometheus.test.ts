// The metrics endpoint and the HTTP metrics in its exposition: real requests
// over HTTP (startTestServer) and in-process (inject), then GET /metrics on its own port.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { json, status } from '../server/replies.ts'
import type { RouteGroup } from '../server/contracts/routes.ts'
import type { TestServer } from '../server/testing/index.ts'
import { inject, startTestServer } from '../server/testing/index.ts'
import type { Telemetry } from './setup.ts'
import { setupTelemetry } from './setup.ts'
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
    ['GET /hello', () => json({ hello: 'world' })],
    ['GET /items/:id', (req) => json({ id: req.bindings.id })],
    ['GET /unavailable', () => status(503)],
    ['POST /echo', async (req) => json({ got: await req.readBody() })],
    [
      'GET /boom',
      () => {
        throw new Error('boom')
      },
    ],
    ['GET /slow', () => new Promise((resolve) => (release = () => resolve(json({ slow: true }))))],
  ],
}
const app = createApp(
  {
    bootstrapApplication: 'metrics',
    server: { port: 8123, streamHandlers: [telemetryStreamHandler, 'default'] },
    routes: { r: group },
  },
  { env: {}, log: logs.log },
)

let telemetry: Telemetry
let server: TestServer
let port: string
beforeAll(async () => {
  telemetry = await setupTelemetry({ spanProcessors: [], prometheus: { port: 0, host: '127.0.0.1' } })
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

  const ok = { ...overHttp(), http_route: '/hello', response_status_code: '200' }
  const samples = await eventually(async () => {
    const s = await scrape()
    return s.some((x) => x.name === 'http_server_request_duration_seconds_count' && x.labels.method === '_OTHER')
      ? s
      : undefined
  })
  const count = one(samples!, 'http_server_request_duration_seconds_count', ok)
  expect(Object.keys(count.labels).sort()).toEqual([
    'http_route',
    'method',
    'response_status_code',
    'scheme',
    'server_address',
    'server_port',
  ])
  expect(count.value).toBe(2)
  expect(one(samples!, 'http_server_request_duration_seconds_bucket', { ...ok, le: '+Inf' }).value).toBe(2)
  const sum = one(samples!, 'http_server_request_duration_seconds_sum', ok).value
  expect(sum).toBeGreaterThan(0)
  expect(sum).toBeLessThan(5)
  const buckets = samples!.filter(
    (s) =>
      s.name === 'http_server_request_duration_seconds_bucket' &&
      s.labels.response_status_code === '200' &&
      s.labels.server_port === port,
  )
  expect(buckets.length).toBeGreaterThan(5)
  expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b))

  // inject: no socket, so the configured host (none: localhost) and port; only the body-read one has finished.
  const inProcess = {
    method: 'GET',
    scheme: 'http',
    server_address: 'localhost',
    server_port: '8123',
    response_status_code: '200',
  }
  expect(one(samples!, 'http_server_request_duration_seconds_count', inProcess).value).toBe(1)
  const boom = one(samples!, 'http_server_request_duration_seconds_count', {
    ...overHttp(),
    response_status_code: '500',
  })
  expect(boom.labels).toMatchObject({ http_route: '/boom', error_type: '500' })
  expect(boom.value).toBe(1)
  // Requests no route took carry no route label.
  const missing = one(samples!, 'http_server_request_duration_seconds_count', {
    ...overHttp(),
    response_status_code: '404',
  })
  expect(missing.labels.http_route).toBeUndefined()
  expect(
    one(samples!, 'http_server_request_duration_seconds_count', {
      ...overHttp(),
      method: '_OTHER',
      response_status_code: '405',
    }).labels.http_route,
  ).toBeUndefined()
  expect(one(samples!, 'http_server_response_body_size_bytes_sum', ok).value).toBe(2 * '{"hello":"world"}'.length)
  expect(one(samples!, 'http_server_request_body_size_bytes_sum', ok).value).toBe(0)
})

it('active requests: up while a request is in flight, down when it has been answered', async () => {
  const active = async () => one(await scrape(), 'http_server_active_requests', overHttp())
  const pending = server.request('/slow')
  const during = await eventually(async () =>
    (await scrape()).some(
      (s) => s.name === 'http_server_active_requests' && s.labels.server_port === port && s.value === 1,
    )
      ? true
      : undefined,
  )
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
    return s.some((x) => x.name === 'http_server_request_body_size_bytes_count' && x.labels.method === 'POST')
      ? s
      : undefined
  })
  expect(one(samples!, 'http_server_request_body_size_bytes_sum', labels).value).toBe(Buffer.byteLength(body))
  expect(one(samples!, 'http_server_response_body_size_bytes_sum', labels).value).toBe(Buffer.byteLength(text))
})

it('the duration histogram is labelled by route template, never the raw path; 5xx answers carry error_type', async () => {
  for (const id of ['1', '2', 'three']) await (await server.request(`/items/${id}`)).text()
  await (await server.request('/unavailable')).text()
  const samples = await eventually(async () => {
    const s = await scrape()
    const items = s.find(
      (x) => x.name === 'http_server_request_duration_seconds_count' && x.labels.http_route === '/items/:id',
    )
    return items?.value === 3 && s.some((x) => x.labels.http_route === '/unavailable') ? s : undefined
  })
  expect(samples, 'three /items/:id requests and one 503 on /metrics').toBeDefined()
  expect(samples!.filter((s) => /\/items\/(1|2|three)/.test(s.labels.http_route ?? ''))).toEqual([])
  const items = one(samples!, 'http_server_request_duration_seconds_count', {
    ...overHttp(),
    http_route: '/items/:id',
    response_status_code: '200',
  })
  expect(items.labels.error_type).toBeUndefined()
  const unavailable = one(samples!, 'http_server_request_duration_seconds_count', {
    ...overHttp(),
    http_route: '/unavailable',
    response_status_code: '503',
  })
  expect(unavailable.labels.error_type).toBe('503')
  expect(unavailable.value).toBe(1)
})

it('clients do not choose the series: 200 requests with random Host headers add no line to /metrics', async () => {
  const text = async () => (await fetch(telemetry.prometheusUrl!)).text()
  const series = (t: string) => t.split('\n').filter((l) => l && !l.startsWith('#'))
  // One request first, so every series the random ones would use already exists.
  await (await server.request({ url: '/hello', headers: { host: 'first.invalid' } })).text()
  const before = await eventually(async () => {
    const t = await text()
    return /http_server_request_duration_seconds_count\{[^}]*http_route="\/hello"[^}]*\} [1-9]/.test(t) ? t : undefined
  })
  const countBefore = sumOf(before!)
  for (let i = 0; i < 200; i++) {
    const host = `${Math.random().toString(36).slice(2)}.invalid:${1 + Math.floor(Math.random() * 65535)}`
    expect((await server.request({ url: '/hello', headers: { host } })).status).toBe(200)
  }
  const after = await eventually(async () => {
    const t = await text()
    return sumOf(t) >= countBefore + 200 ? t : undefined
  })
  expect(after, 'the 200 requests counted').toBeDefined()
  expect(series(after!).length).toBe(series(before!).length)
  expect(after).not.toContain('.invalid')
  expect(after).not.toContain('server_address="_OTHER"')
})

/** The total of the /hello request counts over HTTP. */
function sumOf(text: string): number {
  let sum = 0
  for (const m of text.matchAll(/^http_server_request_duration_seconds_count\{([^}]*)\} (\S+)$/gm))
    if (m[1]!.includes('http_route="/hello"')) sum += Number(m[2])
  return sum
}

it('the metrics server answers only GET /metrics', async () => {
  const base = new URL(telemetry.prometheusUrl!)
  expect(base.pathname).toBe('/metrics')
  expect((await fetch(new URL('/', base))).status).toBe(404)
  expect((await fetch(new URL('/metricsx', base))).status).toBe(404)
  expect((await fetch(base, { method: 'POST' })).status).toBe(405)
  expect(await telemetry.metrics()).toContain('# TYPE http_server_request_duration_seconds histogram')
})
