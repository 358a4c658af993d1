/**
 * Request faults, over a real listener on 127.0.0.1 and raw sockets where the bytes matter: a
 * handler that never settles, a client that leaves mid-body, a malformed chunked body, a body
 * slower than `requestTimeout`, a duplicate Content-Length. Each case checks what the client gets,
 * what the app logs (strictly: an undeclared log line fails the case) and the status observers
 * count (the metrics hook and vela/telemetry's Prometheus exposition). Every wait is bounded, so
 * code without the fix fails in seconds instead of hanging. The cases share the app and its log, so
 * they run in turn; about 3 s in all.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, json, metricsStreamHandler } from '../../server/index.ts'
import type { MetricsEvent, VelaRequest } from '../../server/index.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import type { Telemetry } from '../../telemetry/setup.ts'
import { setupTelemetry } from '../../telemetry/setup.ts'
import { telemetryStreamHandler } from '../../telemetry/stream-handler.ts'
import { strictLog } from '../support/logs.ts'
import { parseRaw } from '../support/raw-http.ts'
import { until } from '../support/until.ts'

const logs = strictLog()

/** Resolves when `check()` holds; rejects with `what` after `ms`. */
/** A raw connection: what the server sent so far, and when it closed. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1')
  let data = ''
  let closed = false
  socket.on('data', (d) => (data += d.toString('latin1')))
  socket.on('error', () => {})
  socket.on('close', () => (closed = true))
  return {
    socket,
    get data() {
      return data
    },
    get closed() {
      return closed
    },
    /** The status lines received, in order. */
    statuses: () => [...data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])),
  }
}

// What the routes saw of their request bodies, and which ones started.
const bodyErrors: number[] = []
const started = new Set<string>()
let lateSettled = false

async function readFailing(req: VelaRequest, name: string) {
  started.add(name)
  try {
    return json({ got: await req.readBody() })
  } catch (err) {
    bodyErrors.push((err as { status: number }).status)
    throw err
  }
}

const events: MetricsEvent[] = []
const app = createApp(
  {
    bootstrapApplication: 'faults',
    // No handlerTimeout: the deadline is requestTimeout's, as the app had it.
    server: {
      headersTimeout: 400,
      requestTimeout: 600,
      streamHandlers: [metricsStreamHandler, telemetryStreamHandler, 'default'],
      options: { metricsCallback: (e) => void events.push(e) },
    },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /hang', () => new Promise(() => {})],
          [
            'GET /late',
            async () => {
              await new Promise((resolve) => setTimeout(resolve, 900))
              lateSettled = true
              return json({ late: true })
            },
          ],
          ['GET /ok', () => json({ ok: true })],
          ['POST /upload', (req) => readFailing(req, 'upload')],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

let server: TestServer
let telemetry: Telemetry
beforeAll(async () => {
  telemetry = await setupTelemetry({ spanProcessors: [], prometheus: { port: 0, host: '127.0.0.1' } })
  server = await startTestServer(app)
})
afterAll(async () => {
  await server.close({ timeoutMs: 1000 })
  await telemetry.shutdown()
})

/** The statuses of the next `n` requests the observers see finish. */
async function observed(n: number, from: number): Promise<number[]> {
  await until(`${n} requests observed`, () => events.length >= from + n)
  return events.slice(from, from + n).map((e) => e.respStatus)
}

describe('request faults', () => {
  it('2. a handler that never settles is answered 503 at its deadline (requestTimeout), logged once with the route; a late answer is dropped', async () => {
    const from = events.length
    logs.expectLogged(
      /^503 on GET \/hang \(route \/hang, routes\/r\.anonymous\): no answer within 600 ms \(handlerTimeout\); a late answer will be dropped$/,
    )
    logs.expectLogged(/^503 on GET \/late \(route \/late, /)
    const t0 = performance.now()
    const res = await fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(3000) })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: 'Service Unavailable: no answer within 600 ms' })
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590)

    // On one keep-alive connection: /late's 503, its handler settles later, then /ok: exactly two answers.
    const c = connect(server.port)
    c.socket.write('GET /late HTTP/1.1\r\nhost: x\r\n\r\n')
    await until('the 503 for /late', () => c.statuses().length === 1)
    await until('the late handler settled', () => lateSettled)
    c.socket.write('GET /ok HTTP/1.1\r\nhost: x\r\n\r\n')
    await until('the answer to /ok', () => c.data.endsWith('{"ok":true}'))
    expect(c.statuses()).toEqual([503, 200])
    expect(c.data).not.toContain('"late":true')
    c.socket.destroy()
    expect(await observed(3, from)).toEqual([503, 503, 200])
  })

  it('8. a client that leaves mid-body: logged once as 499, counted 499 by the metrics hook and telemetry', async () => {
    const from = events.length
    logs.expectLogged(
      /^499 on POST \/upload \(routes\/r\.anonymous\): the client closed the connection before the request body was read$/,
    )
    started.clear()
    const c = connect(server.port)
    c.socket.write(
      'POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\nhalf of it',
    )
    await until('the route started reading', () => started.has('upload'))
    c.socket.destroy()
    expect(await observed(1, from)).toEqual([499])
    await until('the 499 logged', () => logs.entries.some((e) => e.text.startsWith('499 ')))
    expect(bodyErrors.splice(0)).toEqual([499])
    const exposition = await (await fetch(telemetry.prometheusUrl!)).text()
    const uploads = exposition
      .split('\n')
      .filter((l) => l.startsWith('http_server_request_duration_seconds_count{') && l.includes('method="POST"'))
    expect(uploads).toEqual([expect.stringMatching(/response_status_code="499".* 1$/)])
  })

  it('8. a malformed chunked body: 400 with a JSON message and Connection: close; the route reading it neither logs nor answers again', async () => {
    const from = events.length
    const c = connect(server.port)
    c.socket.write(
      'POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n',
    )
    await until('the connection closed', () => c.closed)
    const res = parseRaw(c.data)
    expect(res.status).toBe(400)
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ error: 'Bad Request: invalid chunk size' })
    expect(c.statuses()).toEqual([400])
    expect(await observed(1, from)).toEqual([400])
    await until('the route saw the failed read', () => bodyErrors.length === 1)
    expect(bodyErrors.splice(0)).toEqual([400])
  })

  it('8. a body slower than requestTimeout: 408 with a JSON message and Connection: close; the route reading it neither logs nor answers again', async () => {
    const from = events.length
    const c = connect(server.port)
    const t0 = performance.now()
    c.socket.write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 10\r\n\r\nabc')
    await until('the connection closed', () => c.closed)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590)
    const res = parseRaw(c.data)
    expect(res.status).toBe(408)
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ error: 'Request Timeout: the request was not received in time' })
    expect(c.statuses()).toEqual([408])
    expect(await observed(1, from)).toEqual([408])
    await until('the route saw the failed read', () => bodyErrors.length === 1)
    expect(bodyErrors.splice(0)).toEqual([408])
  })

  it('10. a duplicate Content-Length is named as such; Content-Length with Transfer-Encoding keeps its own message', async () => {
    const send = async (head: string) => {
      const c = connect(server.port)
      c.socket.write(`POST /upload HTTP/1.1\r\nhost: x\r\n${head}\r\n\r\nabc`)
      await until('the connection closed', () => c.closed)
      const res = parseRaw(c.data)
      return { status: res.status, body: JSON.parse(res.body) as unknown }
    }
    expect(await send('content-length: 3\r\ncontent-length: 4')).toEqual({
      status: 400,
      body: { error: 'Bad Request: duplicate Content-Length' },
    })
    const both = { status: 400, body: { error: 'Bad Request: both Content-Length and Transfer-Encoding given' } }
    expect(await send('content-length: 3\r\ntransfer-encoding: chunked')).toEqual(both)
    expect(await send('transfer-encoding: chunked\r\ncontent-length: 3')).toEqual(both)
  })
})
