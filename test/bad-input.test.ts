// Bad input over real HTTP: each gets the right 4xx with a clear message, and the server keeps
// answering the next request.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { requestPlugin } from '../server/plugins/request.ts'
import { json, status } from '../server/replies.ts'
import type { TestServer } from '../server/testing/index.ts'
import { startTestServer } from '../server/testing/index.ts'
import { rawRequest } from './support/raw-http.ts'
import { strictLog } from './support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

let server: TestServer
const app = createApp(
  {
    bootstrapApplication: 'bad-input',
    server: { bodyLimit: 64 * 1024, headersTimeout: 600, requestTimeout: 1500 },
    plugins: [requestPlugin({ json: true })],
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /heartbeat', () => status(200)],
          ['GET /notes/:id', (req) => json({ id: req.bindings.id })],
          [
            'POST /api/products',
            (req) => (req.json ? json(req.json, { status: 201 }) : status(422, { error: 'missing body' })),
          ],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

beforeAll(async () => {
  server = await startTestServer(app)
})
afterAll(() => server.close({ timeoutMs: 1000 }))

async function stillServing() {
  const res = await server.request('/heartbeat')
  expect(res.status).toBe(200)
}

const post = (body: string, type = 'application/json') =>
  `POST /api/products HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

it('malformed JSON: 400 naming the problem', async () => {
  const res = await rawRequest(server.port, post('{"name": "Widget", "price": '))
  expect(res.status).toBe(400)
  expect(JSON.parse(res.body).error).toMatch(/^Bad Request: malformed JSON body/)
  await stillServing()
})

it('JSON under a wrong content type: 415 saying what to send', async () => {
  const res = await rawRequest(server.port, post('{"name":"Widget"}', 'text/plain'))
  expect(res.status).toBe(415)
  expect(JSON.parse(res.body)).toEqual({
    error: 'Unsupported Media Type: content type text/plain is not accepted here; send application/json',
  })
  await stillServing()
})

it('a body over the limit: 413, whether declared or chunked', async () => {
  const big = JSON.stringify({ pad: 'x'.repeat(100 * 1024) })
  const declared = await server.request({
    method: 'POST',
    url: '/api/products',
    headers: { 'content-type': 'application/json' },
    body: big,
  })
  expect(declared.status).toBe(413)
  expect(await declared.json()).toEqual({
    error: 'Payload Too Large: the request body exceeds the limit of 65536 bytes',
  })
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`
  const chunked = await rawRequest(
    server.port,
    `POST /api/products HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${chunk(big.slice(0, 40000))}${chunk(big.slice(40000))}0\r\n\r\n`,
  )
  expect(chunked.status).toBe(413)
  await stillServing()
})

it('invalid percent-encoding in the path: 400', async () => {
  for (const path of ['/notes/%E0%A4%A', '/notes/%zz', '/notes/%']) {
    const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`)
    expect(res.status, path).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ error: 'Bad Request: invalid percent-encoding in the URL path' })
  }
  await stillServing()
})

it('an unknown method: 400 from the parser, 405 with allow for a known method the route does not take', async () => {
  const brew = await rawRequest(server.port, 'BREW /heartbeat HTTP/1.1\r\nhost: x\r\n\r\n')
  expect(brew.status).toBe(400)
  expect(JSON.parse(brew.body)).toEqual({ error: 'Bad Request: unknown HTTP method' })
  const propfind = await rawRequest(server.port, 'PROPFIND /heartbeat HTTP/1.1\r\nhost: x\r\n\r\n')
  expect(propfind.status).toBe(405)
  expect(propfind.headers.allow).toBe('GET, HEAD')
  await stillServing()
})

it('a 64 KiB URL: 431 from the parser; a 10 KiB one: 414 from the app', async () => {
  const huge = await rawRequest(server.port, `GET /notes/${'a'.repeat(64 * 1024)} HTTP/1.1\r\nhost: x\r\n\r\n`)
  expect(huge.status).toBe(431)
  expect(JSON.parse(huge.body).error).toMatch(/^Request Header Fields Too Large/)
  const long = await rawRequest(server.port, `GET /notes/${'a'.repeat(10 * 1024)} HTTP/1.1\r\nhost: x\r\n\r\n`)
  expect(long.status).toBe(414)
  expect(JSON.parse(long.body)).toEqual({ error: 'URI Too Long: the request target exceeds 8192 bytes' })
  await stillServing()
})

it('a header flood: 431', async () => {
  const headers = Array.from({ length: 2000 }, (_, i) => `x-flood-${i}: ${'v'.repeat(40)}`).join('\r\n')
  const res = await rawRequest(server.port, `GET /heartbeat HTTP/1.1\r\nhost: x\r\n${headers}\r\n\r\n`)
  expect(res.status).toBe(431)
  await stillServing()
})

it('headers sent too slowly: 408 after headersTimeout', async () => {
  const started = Date.now()
  const res = await rawRequest(server.port, 'GET /heartbeat HTTP/1.1\r\nhost: x\r\nx-slow: ', 3000)
  expect(res.status).toBe(408)
  expect(Date.now() - started).toBeLessThan(3000)
  await stillServing()
})

it('a request line that is not HTTP: 400', async () => {
  const res = await rawRequest(server.port, 'hello there\r\n\r\n')
  expect(res.status).toBe(400)
  await stillServing()
})

it('in-process too, a malformed path and an oversized URL are clear 4xx', async () => {
  const { inject } = await import('../server/testing/index.ts')
  expect((await inject(app, '/notes/%E0%A4%A')).status).toBe(400)
  expect((await inject(app, `/notes/${'a'.repeat(9000)}`)).status).toBe(414)
})
