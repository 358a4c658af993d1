// The playground's telemetry, seen from outside as an operator sees it: after known traffic, the
// Prometheus endpoint (`setupTelemetry({ prometheus: { port } })`, METRICS_PORT here) holds the HTTP
// series and their labels, and an OTLP collector (OTEL_EXPORTER_OTLP_ENDPOINT) receives one server span
// per request named after its route, in every group, with the database queries as child spans and
// the client's user agent. Then the same as deployed: released, run with node on PostgreSQL.
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { releasePlayground, startInstance } from './support/built-playground.ts'
import { FormClient, api } from './support/form-client.ts'
import type { Collector, DecodedSpan } from './support/otlp.ts'
import { SPAN_KIND_CLIENT, SPAN_KIND_SERVER, attrs, hex, startCollector } from './support/otlp.ts'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'

const hasPostgres = await serviceAvailable('postgres')
/** The User-Agent every request of the known traffic sends. */
const UA = 'vela-telemetry-check/1.0 (+outside)'

let collector: Collector
let server: Playground
beforeAll(async () => {
  collector = await startCollector()
  server = await startPlayground({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint } })
  await knownTraffic()
})
afterAll(async () => {
  await server?.stop()
  await collector?.close()
})

/** Every request this server gets (its only traffic): 10 requests, each with a User-Agent. */
async function knownTraffic() {
  const call = api(server.base)
  const headers = { 'user-agent': UA }
  for (let i = 0; i < 3; i++) expect((await fetch(`${server.base}/heartbeat`, { headers })).status).toBe(200)
  expect((await call('/api/products', { body: { name: 'Traced', price: 1 }, headers })).status).toBe(201)
  expect((await call('/api/products/999999', { headers })).status).toBe(404)
  expect((await call('/nowhere', { headers })).status).toBe(404)
  const browser = new FormClient(server.base, headers)
  expect((await browser.login()).status).toBe(302) // GET /login, then POST /
  expect((await browser.request('/notes')).status).toBe(200)
  const ws = new WebSocket(`${server.base.replace('http', 'ws')}/ws`, { headers })
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
  ws.close()
  await new Promise((resolve) => ws.once('close', resolve))
}

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) continue
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]))
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return samples
}

it('the Prometheus endpoint holds the HTTP metrics of that traffic, labelled by request and server', async () => {
  const res = await fetch(server.metricsUrl)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
  const text = await res.text()
  const on = { scheme: 'http', server_address: '127.0.0.1', server_port: String(server.port) }
  // One line exactly as the exposition writes it (labels in this order).
  expect(text).toContain(
    `http_server_request_duration_seconds_count{method="GET",scheme="http",server_address="127.0.0.1",server_port="${server.port}",response_status_code="200",http_route="/heartbeat"} 3`,
  )
  const samples = parseExposition(text)
  // Summed over the routes (`http_route`, absent on unrouted requests): totals per method, server and status.
  const value = (name: string, labels: Record<string, string>) => {
    const extra = (k: string) => k === 'http_route' || k === 'error_type'
    const found = samples.filter(
      (s) =>
        s.name === name &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v) &&
        Object.keys(s.labels).every((k) => k in labels || extra(k)),
    )
    expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeGreaterThan(0)
    return found.reduce((sum, s) => sum + s.value, 0)
  }
  const counts = {
    'GET 200': 5, // 3 × /heartbeat, /login, /notes
    'POST 201': 1,
    'GET 404': 2, // a missing product, an unknown path
    'POST 302': 1, // the login
    'GET 101': 1, // the WebSocket handshake
  }
  for (const [key, n] of Object.entries(counts)) {
    const [method, status] = key.split(' ')
    const labels = { method: method!, ...on, response_status_code: status! }
    expect(value('http_server_request_duration_seconds_count', labels), key).toBe(n)
    expect(value('http_server_request_duration_seconds_bucket', { ...labels, le: '+Inf' }), key).toBe(n)
    expect(value('http_server_request_duration_seconds_sum', labels), key).toBeGreaterThan(0)
  }
  for (const method of ['GET', 'POST']) expect(value('http_server_active_requests', { method, ...on })).toBe(0)
  const created = { method: 'POST', ...on, response_status_code: '201' }
  expect(value('http_server_request_body_size_bytes_sum', created)).toBe(
    JSON.stringify({ name: 'Traced', price: 1 }).length,
  )
  expect(value('http_server_response_body_size_bytes_count', created)).toBe(1)
  expect(
    value('http_server_response_body_size_bytes_sum', { method: 'GET', ...on, response_status_code: '200' }),
  ).toBeGreaterThan(0)
})

it('the OTLP collector gets one span per request named after its route, with query spans as children', async () => {
  // Stopping the server flushes the batch span processor (the app's stop hook shuts telemetry down).
  await server.stop()
  expect(server.output()).toContain('shutdown complete')
  const spans = collector.spans()
  const servers = spans.filter((s) => s.kind === SPAN_KIND_SERVER)
  const summary = (s: DecodedSpan) => `${s.name} ${attrs(s.attributes)['http.response.status_code']}`
  expect(servers.map(summary).sort()).toEqual(
    [
      'GET health_controller:heartbeat 200',
      'GET health_controller:heartbeat 200',
      'GET health_controller:heartbeat 200',
      'POST products_controller:create 201',
      'GET products_controller:show 404',
      'HTTP GET 404',
      'GET session_controller:new 200',
      'POST session_controller:create 302',
      'GET notes_controller:index 200',
      'GET echo_controller:socket 101',
    ].sort(),
  )
  const byName = (name: string) => servers.find((s) => s.name === name)!
  expect(attrs(byName('GET notes_controller:index').attributes)).toMatchObject({
    'vela.app': 'playground',
    'vela.controller': 'notes_controller',
    'vela.action': 'index',
    'http.route': '/notes',
    'url.path': '/notes',
    'http.request.method': 'GET',
  })
  expect(attrs(byName('HTTP GET').attributes)['http.route']).toBeUndefined()
  // Every request sent a User-Agent, the WebSocket handshake and the 404 no route took included.
  expect(servers.filter((s) => attrs(s.attributes)['user_agent.original'] !== UA).map(summary)).toEqual([])

  const childrenOf = (parent: DecodedSpan) =>
    spans.filter((s) => hex(s.parentSpanId) === hex(parent.spanId) && hex(s.traceId) === hex(parent.traceId))
  const queries = (name: string) =>
    childrenOf(byName(name))
      .filter((s) => s.kind === SPAN_KIND_CLIENT)
      .map((s) => attrs(s.attributes))
  expect(queries('GET notes_controller:index')).toContainEqual(
    expect.objectContaining({ 'db.system': 'postgresql', 'db.statement': expect.stringMatching(/from "notes"/i) }),
  )
  expect(queries('POST products_controller:create')).toContainEqual(
    expect.objectContaining({ 'db.statement': expect.stringMatching(/insert into "products"/i) }),
  )
  expect(queries('POST session_controller:create')).toContainEqual(
    expect.objectContaining({ 'db.statement': expect.stringMatching(/from "users"/i) }),
  )
  expect(childrenOf(byName('GET health_controller:heartbeat'))).toEqual([])
  // No query span is left without its request.
  for (const query of spans.filter((s) => s.kind === SPAN_KIND_CLIENT && hex(s.parentSpanId) !== '')) {
    expect(servers.some((s) => hex(s.spanId) === hex(query.parentSpanId))).toBe(true)
  }
})

// As an outside check runs it: released (`vela release`, the bundled server), run with node on
// PostgreSQL, exporting over OTLP. Each server span exported records the user agent its request
// sent, over HTTP/1.1 and HTTP/1.0, routed or not.
it.skipIf(!hasPostgres)('released and run on PostgreSQL, every server span exported has the user agent', async () => {
  const otlp = await startCollector()
  const database = await freshPostgresDatabase('vela_telemetry')
  const release = releasePlayground('telemetry')
  const instance = await startInstance(release, {
    DATABASE_URL: database.url,
    VELA_SESSION_SECRET: randomBytes(32).toString('base64url'),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
  })
  try {
    await instance.listening()
    const headers = { 'user-agent': UA }
    expect((await fetch(`${instance.url}/heartbeat`, { headers })).status).toBe(200)
    expect((await api(instance.url)('/api/products/999999', { headers })).status).toBe(404)
    expect((await fetch(`${instance.url}/nowhere`, { headers })).status).toBe(404)
    expect(await http10(instance.port, '/heartbeat')).toBe(200)
    // The app's stop hook shuts telemetry down, which flushes the batch of spans.
    await instance.stop()
    const seen = otlp
      .spans()
      .filter((s) => s.kind === SPAN_KIND_SERVER)
      .map((s) => attrs(s.attributes))
      .map((a) => `${a['url.path']} HTTP/${a['network.protocol.version']} ${a['user_agent.original']}`)
    expect(seen.sort()).toEqual(
      [
        `/heartbeat HTTP/1.1 ${UA}`,
        `/api/products/999999 HTTP/1.1 ${UA}`,
        `/nowhere HTTP/1.1 ${UA}`,
        `/heartbeat HTTP/1.0 ${UA}`,
      ].sort(),
    )
  } finally {
    await instance.stop()
    await otlp.close()
    await database.drop()
    release.remove()
  }
})

/** One HTTP/1.0 request written on a socket (fetch and node's client speak 1.1): its status. */
function http10(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = ''
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: ${UA}\r\n\r\n`),
    )
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (head += chunk))
    // A 1.0 response ends with the connection.
    socket.once('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1])))
    socket.once('error', reject)
  })
}
