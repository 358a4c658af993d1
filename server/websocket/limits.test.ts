// WebSocket limits over a real server in this process (test/faults/websocket-config.test.ts runs
// them in a child process whose memory it watches): `server.websocket` and a route's own limits,
// 1009 for a message too big, 1013 for a client that does not keep up, and the peer the hooks get
// (its `websocket`, `publish` skipping the sender).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createApp } from '../app/create-app.ts'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { defineWebSocket } from './define.ts'
import { strictLog } from '../../test/support/logs.ts'
import { until } from '../../test/support/until.ts'

const logs = strictLog()
const closes: Array<{ route: string; code?: number }> = []
const CHUNK = 'x'.repeat(64 * 1024)

const sizes = defineWebSocket({
  message: (peer, message) => void peer.send(`${message.uint8Array().byteLength} bytes`),
})
const tiny = defineWebSocket(
  { message: (peer, message) => void peer.send(`${message.uint8Array().byteLength} bytes`) },
  { maxMessageBytes: 16 },
)
// `n` asks for n messages of 64 KiB at once, sent until the connection stops being open.
let sends = 0
const firehoseHooks: Parameters<typeof defineWebSocket>[0] = {
  message(peer, message) {
    for (let i = 0; i < Number(message.text()); i++) {
      if (peer.websocket.readyState !== 1) break
      peer.send(CHUNK)
      sends = i + 1
    }
  },
  close: (_peer, details) => void closes.push({ route: 'firehose', code: details.code }),
}
const firehose = defineWebSocket(firehoseHooks, { maxBufferedBytes: 256 * 1024 })
// The same, giving a client 2.5 s to read the close.
const patientFirehose = defineWebSocket(firehoseHooks, { maxBufferedBytes: 256 * 1024, closeTimeout: 2500 })
const room = defineWebSocket({
  open(peer) {
    peer.subscribe('room')
    peer.send(`open, readyState ${peer.websocket.readyState}`)
  },
  message: (peer, message) => peer.publish('room', `${peer.context.req.query.name}: ${message.text()}`),
})

const app = createApp(
  {
    bootstrapApplication: 'ws-limits',
    server: { websocket: { maxMessageBytes: 1024 } },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['/sizes', sizes, { protocol: 'ws' }],
          ['/tiny', tiny, { protocol: 'ws' }],
          ['/firehose', firehose, { protocol: 'ws' }],
          ['/patient-firehose', patientFirehose, { protocol: 'ws' }],
          ['/room', room, { protocol: 'ws' }],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

/** Resolves once `ws` is open (and with its first message when `first`). */
function opened(url: string, first = false): Promise<{ ws: WebSocket; message: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    if (first) ws.once('message', (data) => resolve({ ws, message: String(data) }))
    else ws.once('open', () => resolve({ ws, message: '' }))
    ws.once('error', reject)
  })
}
const next = (ws: WebSocket) => new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))))
const closed = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
/** Resolves once `check()` holds; rejects after `ms`. */
describe('WebSocket limits', () => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startTestServer(app)
    base = server.url.replace('http', 'ws')
  })
  afterAll(() => server.close({ timeoutMs: 1000 }))

  it('server.websocket.maxMessageBytes bounds every route, a route given its own limit keeps it: a larger message closes with 1009', async () => {
    for (const [path, limit] of [
      ['/sizes', 1024],
      ['/tiny', 16],
    ] as const) {
      const { ws } = await opened(`${base}${path}`)
      ws.send(Buffer.alloc(limit))
      expect(await next(ws)).toBe(`${limit} bytes`)
      const code = closed(ws)
      ws.send(Buffer.alloc(limit + 1))
      expect(await code).toBe(1009)
    }
  })

  it('a client that does not read: sends beyond maxBufferedBytes are dropped, it gets 1013 once it reads, the close hook sees 1013', async () => {
    const { ws } = await opened(`${base}/firehose`)
    ws.pause()
    sends = 0
    ws.send('400')
    await until('a send', () => sends > 0, 2000)
    let received = 0
    ws.on('message', () => received++)
    const code = closed(ws)
    ws.resume()
    expect(await code).toBe(1013)
    // 400 × 64 KiB were asked for: the socket took what the kernel held plus the bound; the send
    // that found the queue full was dropped, and closed the connection.
    expect(sends).toBeLessThan(400)
    expect(received).toBe(sends - 1)
    await until('the close', () => closes.length > 0, 2000)
    expect(closes.splice(0)).toEqual([{ route: 'firehose', code: 1013 }])
  })

  it('a client that never reads again has its socket destroyed after a second; the close hook still sees 1013', async () => {
    const { ws } = await opened(`${base}/firehose`)
    ws.pause()
    const start = performance.now()
    ws.send('400')
    await until('the close', () => closes.length > 0)
    expect(performance.now() - start).toBeGreaterThanOrEqual(900)
    expect(closes.splice(0)).toEqual([{ route: 'firehose', code: 1013 }])
    ws.terminate()
  })

  it("a route's closeTimeout gives a client that long to read the close before its socket is destroyed", async () => {
    const { ws } = await opened(`${base}/patient-firehose`)
    ws.pause()
    const start = performance.now()
    ws.send('400')
    await until('the close', () => closes.length > 0, 10_000)
    expect(performance.now() - start).toBeGreaterThanOrEqual(2400)
    expect(closes.splice(0)).toEqual([{ route: 'firehose', code: 1013 }])
    ws.terminate()
  })

  it("the hooks' peer: its websocket is readable; publish reaches the others, not the sender", async () => {
    const alice = await opened(`${base}/room?name=alice`, true)
    const bob = await opened(`${base}/room?name=bob`, true)
    expect([alice.message, bob.message]).toEqual(['open, readyState 1', 'open, readyState 1'])
    const heard: string[] = []
    alice.ws.on('message', (data) => heard.push(`alice heard ${data}`))
    const toBob = next(bob.ws)
    alice.ws.send('hi')
    expect(await toBob).toBe('alice: hi')
    const toAlice = next(alice.ws)
    bob.ws.send('hello')
    expect(await toAlice).toBe('bob: hello')
    expect(heard).toEqual(['alice heard bob: hello'])
    alice.ws.close()
    bob.ws.close()
  })
})
