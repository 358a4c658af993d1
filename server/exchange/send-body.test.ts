// Streamed bodies on the node path (send-body.ts), over a real listener: a stream is read only as
// the client takes it and cancelled when the client leaves; one that fails midway is logged once
// and its connection closed; HEAD cancels it unread.
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { strictLog } from '../../test/support/logs.ts'
import { until } from '../../test/support/until.ts'

const logs = strictLog()
const state = { pulls: 0, cancelled: 0 }
const endless = () =>
  new Response(
    new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          state.pulls++
          controller.enqueue(new Uint8Array(64 * 1024))
        },
        cancel: () => void state.cancelled++,
      },
      { highWaterMark: 0 },
    ),
  )
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

const app = createApp(
  {
    bootstrapApplication: 'send-body',
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['/endless', endless],
          ['/failing', failing],
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
