// Streamed bodies on the node path (send-body.ts), over a real listener: a stream is read only as
// the client takes it and cancelled when the client leaves; one that fails midway is logged once
// and its connection closed; HEAD cancels it unread; one queued behind a stalled response on its
// connection (pipelining) is read only in its turn and cancelled with the connection, on the
// direct path and through a fetch-only stream handler (srvx writes the response).
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../contracts/config.ts'
import { defineStreamHandler } from '../stream-handlers/stream-handlers.ts'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { strictLog } from '../../test/support/logs.ts'
import { until } from '../../test/support/until.ts'

const logs = strictLog()
const state = { pulls: 0, cancelled: 0 }
// Each endless body made, in order: how often it was read, whether it was cancelled.
const bodies: { pulls: number; cancelled: boolean }[] = []
const endless = () => {
  const body = { pulls: 0, cancelled: false }
  bodies.push(body)
  return new Response(
    new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          state.pulls++
          body.pulls++
          controller.enqueue(new Uint8Array(64 * 1024))
        },
        cancel: () => void (state.cancelled++, (body.cancelled = true)),
      },
      { highWaterMark: 0 },
    ),
  )
}
let failingPulls = 0
const failing = () =>
  new Response(
    new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (failingPulls++ === 2) controller.error(new Error('source broke'))
          else controller.enqueue(new TextEncoder().encode('chunk\n'))
        },
      },
      { highWaterMark: 0 },
    ),
  )

const routes = {
  r: {
    prefix: '',
    security: false,
    routes: [
      ['GET /endless', endless],
      ['GET /failing', failing],
    ],
  },
} satisfies AppConfig['routes']
const app = createApp({ bootstrapApplication: 'send-body', routes }, { env: {}, log: logs.log })
// A stream handler without `wrapNode`: node's requests reach the app as web Requests, and srvx
// writes the response.
const viaFetch = createApp(
  {
    bootstrapApplication: 'send-body-fetch',
    server: { streamHandlers: [defineStreamHandler({ name: 'fetch-only', wrap: (next) => next }), 'default'] },
    routes,
  },
  { env: {}, log: logs.log },
)
let server: TestServer
let fetchServer: TestServer
beforeAll(async () => {
  server = await startTestServer(app)
  fetchServer = await startTestServer(viaFetch)
})
afterAll(() => Promise.all([server.close({ timeoutMs: 1000 }), fetchServer.close({ timeoutMs: 1000 })]))

it('an endless stream is read only as the client takes it, and cancelled when the client leaves', async () => {
  const cancelled = state.cancelled
  const socket = net.connect(server.port, '127.0.0.1')
  socket.pause()
  socket.on('error', () => {})
  socket.write('GET /endless HTTP/1.1\r\nhost: x\r\n\r\n')
  await until('the stream was read', () => state.pulls > 0)
  // The client reads nothing: reading stops once the connection's buffers are full.
  let seen = -1
  await until(
    'reading stopped',
    () => {
      const stopped = state.pulls === seen
      seen = state.pulls
      return stopped && seen > 1
    },
    10_000,
  )
  expect(state.pulls * 64 * 1024).toBeLessThan(64 * 1024 * 1024)
  socket.destroy()
  await until('the stream was cancelled', () => state.cancelled === cancelled + 1, 10_000)
})

it('HEAD cancels the stream unread', async () => {
  const before = state.pulls
  const cancelled = state.cancelled
  const res = await fetch(`${server.url}/endless`, { method: 'HEAD' })
  expect(res.status).toBe(200)
  await until('the stream was cancelled', () => state.cancelled === cancelled + 1)
  expect(state.pulls).toBe(before)
})

it('a stream that fails midway is logged once and its connection closed', async () => {
  logs.expectLogged(/^failed to answer GET \/failing: Error: source broke/)
  const err = await fetch(`${server.url}/failing`)
    .then((res) => res.text())
    .then(
      () => undefined,
      (e: unknown) => e,
    )
  expect(err).toBeInstanceOf(Error)
  await until('logged', () => logs.entries.length > 0)
  expect(logs.entries.filter((e) => e.text.includes('source broke'))).toHaveLength(1)
})

/** Sends two pipelined GETs of /endless on one connection that reads nothing; resolves with its socket and their bodies. */
async function queuedBehindStalled(port: number) {
  const from = bodies.length
  const socket = net.connect(port, '127.0.0.1')
  socket.pause()
  socket.on('error', () => {})
  socket.write('GET /endless HTTP/1.1\r\nhost: x\r\n\r\n'.repeat(2))
  await until('both requests answered', () => bodies.length === from + 2)
  const [first, queued] = bodies.slice(from) as [(typeof bodies)[number], (typeof bodies)[number]]
  // The first fills the connection's buffers, then stalls: the second is never given its turn.
  let seen = -1
  await until(
    'reading stopped',
    () => {
      const stopped = first.pulls === seen
      seen = first.pulls
      return stopped && seen > 1
    },
    10_000,
  )
  return { socket, first, queued }
}

it('a body queued behind a stalled one on its connection (pipelining) is not read before its turn, and is cancelled when the client leaves', async () => {
  const { socket, first, queued } = await queuedBehindStalled(server.port)
  expect(queued.pulls).toBe(0)
  socket.destroy()
  await until('both bodies cancelled', () => first.cancelled && queued.cancelled, 10_000)
})

it('through a fetch-only stream handler too, a queued body is cancelled when the client leaves', async () => {
  const { socket, first, queued } = await queuedBehindStalled(fetchServer.port)
  socket.destroy()
  await until('both bodies cancelled', () => first.cancelled && queued.cancelled, 10_000)
})
