// Bodies that fail after the app was given the request (client-errors.ts, request-body.ts): what
// the client gets, what the route's read of the body gives, what observers count, what is logged.
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { strictLog } from '../../test/support/logs.ts'
import { parseRaw } from '../../test/support/raw-http.ts'
import { until } from '../../test/support/until.ts'
import { createApp } from '../app/create-app.ts'
import type { MetricsEvent } from '../app/config.ts'
import { json, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import { metricsStreamHandler } from '../stream-handlers/metrics.ts'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { answerFor } from './client-errors.ts'

const logs = strictLog()

const reads: number[] = []
const arrived = new Set<string>()
let release: () => void = () => {}

async function read(req: VelaRequest, name: string) {
  arrived.add(name)
  try {
    return json({ got: await req.readBody() })
  } catch (err) {
    reads.push((err as { status: number }).status)
    throw err
  }
}

const events: MetricsEvent[] = []
const app = createApp(
  {
    bootstrapApplication: 'client-errors',
    server: {
      headersTimeout: 300,
      requestTimeout: 500,
      streamHandlers: [metricsStreamHandler, 'default'],
      options: { metricsCallback: (e) => void events.push(e) },
    },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          // Without a deadline of its own, node's requestTimeout is the one that runs out.
          ['POST /listener', (req) => read(req, 'listener'), { handlerTimeout: 0 }],
          ['POST /deadline', (req) => read(req, 'deadline'), { handlerTimeout: 200 }],
          [
            'GET /wait',
            () => (arrived.add('wait'), new Promise((resolve) => (release = () => resolve(status(204))))),
            { handlerTimeout: 0 },
          ],
          [
            'POST /read-later',
            async (req) => (
              arrived.add('read-later'),
              await new Promise<void>((resolve) => (release = resolve)),
              read(req, 'late reader')
            ),
            { handlerTimeout: 0 },
          ],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(app)
})
afterAll(() => server.close({ timeoutMs: 1000 }))

function connect() {
  const socket = net.connect(server.port, '127.0.0.1')
  const state = { socket, data: '', closed: false }
  socket.on('data', (d) => (state.data += d.toString('latin1')))
  socket.on('error', () => {})
  socket.on('close', () => (state.closed = true))
  return state
}

const post = (path: string, length: number, sent: string) =>
  `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: ${length}\r\n\r\n${sent}`

async function statusesFrom(from: number, n: number): Promise<number[]> {
  await until(`${n} requests observed`, () => events.length >= from + n)
  return events.slice(from).map((e) => e.respStatus)
}

it("a body slower than requestTimeout: node's timeout or the route's deadline, whichever comes first, gives the same 408", async () => {
  for (const path of ['/listener', '/deadline']) {
    const from = events.length
    const c = connect()
    c.socket.write(post(path, 10, 'abc'))
    await until('the connection closed', () => c.closed)
    const res = parseRaw(c.data)
    expect(res.status, path).toBe(408)
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ error: 'Request Timeout: the request was not received in time' })
    expect(await statusesFrom(from, 1)).toEqual([408])
    await until('the read rejected', () => reads.length === 1)
    expect(reads.splice(0)).toEqual([408])
  }
})

it('a client that resets the connection mid-body: 499, logged once', async () => {
  const from = events.length
  logs.expectLogged(
    /^499 on POST \/listener \(routes\/r\.anonymous\): the client closed the connection before the request body was read$/,
  )
  arrived.clear()
  const c = connect()
  c.socket.write(post('/listener', 100, 'abc'))
  await until('the route started', () => arrived.has('listener'))
  c.socket.resetAndDestroy()
  expect(await statusesFrom(from, 1)).toEqual([499])
  await until('the read rejected', () => reads.length === 1)
  expect(reads.splice(0)).toEqual([499])
})

it('a client that leaves while the route works, without reading the body: 499, nothing logged; the late answer is dropped', async () => {
  const from = events.length
  arrived.clear()
  const c = connect()
  c.socket.write('GET /wait HTTP/1.1\r\nhost: x\r\n\r\n')
  await until('the route started', () => arrived.has('wait'))
  c.socket.destroy()
  expect(await statusesFrom(from, 1)).toEqual([499])
  release()
  // A second request shows the server well, and the late answer wrote nothing anywhere.
  const c2 = connect()
  c2.socket.write('POST /listener HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nconnection: close\r\n\r\nhi')
  await until('the answer', () => c2.closed)
  expect(parseRaw(c2.data)).toMatchObject({ status: 200, body: '{"got":"hi"}' })
})

it('a body read after its client left: 499, logged once', async () => {
  const from = events.length
  logs.expectLogged(/^499 on POST \/read-later \(routes\/r\.anonymous\): the client closed/)
  arrived.clear()
  const c = connect()
  c.socket.write(post('/read-later', 100, 'abc'))
  await until('the route started', () => arrived.has('read-later'))
  c.socket.resetAndDestroy()
  expect(await statusesFrom(from, 1)).toEqual([499])
  release()
  await until('the read rejected', () => reads.length === 1)
  expect(reads.splice(0)).toEqual([499])
})

it('a malformed body behind an unanswered request (pipelining): the connection is dropped, nothing is answered out of order', async () => {
  const from = events.length
  logs.expectLogged(/^499 on POST \/listener \(routes\/r\.anonymous\): the client closed/)
  arrived.clear()
  const c = connect()
  c.socket.write(
    'GET /wait HTTP/1.1\r\nhost: x\r\n\r\nPOST /listener HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n',
  )
  await until('the connection closed', () => c.closed)
  expect(c.data).toBe('')
  // The response of the request queued behind (the POST) closes with the connection too.
  expect(await statusesFrom(from, 2)).toEqual([499, 499])
  release()
  await until('the read rejected', () => reads.length === 1)
  expect(reads.splice(0)).toEqual([499])
})

it("llhttp's reason tells the causes of one code apart", () => {
  const parseError = (code: string, reason: string) =>
    Object.assign(new Error(`Parse Error: ${reason}`), { code, reason })
  expect(answerFor(parseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length'))).toEqual([
    400,
    'Bad Request: duplicate Content-Length',
  ])
  expect(
    answerFor(parseError('HPE_UNEXPECTED_CONTENT_LENGTH', "Content-Length can't be present with Transfer-Encoding")),
  ).toEqual([400, 'Bad Request: both Content-Length and Transfer-Encoding given'])
  expect(
    answerFor(parseError('HPE_INVALID_TRANSFER_ENCODING', "Transfer-Encoding can't be present with Content-Length")),
  ).toEqual([400, 'Bad Request: both Content-Length and Transfer-Encoding given'])
  expect(answerFor(parseError('HPE_INVALID_TRANSFER_ENCODING', 'Request has invalid `Transfer-Encoding`'))).toEqual([
    400,
    'Bad Request: invalid Transfer-Encoding',
  ])
  expect(answerFor(parseError('HPE_SOMETHING_NEW', 'who knows'))).toEqual([400, 'Bad Request: malformed HTTP request'])
})
