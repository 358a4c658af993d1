// The listener's drain (drain.ts), in-process over raw keep-alive sockets: with `idle: 'wait'` an
// idle connection stays open for the request its client may be writing, answered with
// `Connection: close`; one that never sent a byte closes after a keep-alive period; WebSocket
// upgrades are refused once shutdown closed the WebSockets. With `idle: 'close'` idle
// connections close at once. The process-level cases are in test/faults/shutdown.test.ts.
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import { json } from '../replies.ts'
import { defineWebSocket } from '../websocket/define.ts'
import { rawConnection } from '../../test/support/raw-http.ts'
import { strictLog } from '../../test/support/logs.ts'
import { listen, listeningOn } from './listen.ts'

const logs = strictLog()

const appWith = (keepAliveTimeout: number) =>
  createApp(
    {
      bootstrapApplication: 'drain',
      server: { keepAliveTimeout },
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [
            ['GET /work', () => json({ ok: true })],
            ['/ws', defineWebSocket({}), { protocol: 'ws' }],
          ],
        },
      },
    },
    { env: {}, log: logs.log },
  )

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`

function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), resolve('connected')))
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
  })
}

/** A connection that sends nothing; resolves `closed` when the server closes it. */
function silentConnection(port: number): Promise<{ closed: Promise<number> }> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () =>
      resolve({ closed: new Promise((r) => s.once('close', () => r(performance.now()))) }),
    )
    s.on('error', () => {})
  })
}

describe.concurrent('close({ idle })', () => {
  it("'wait': an idle keep-alive connection stays open; its next request is answered with Connection: close; a silent one closes after a keep-alive period", async () => {
    const app = appWith(400)
    await app.start()
    const listener = await listen(app, { port: 0, host: '127.0.0.1' })
    const reused = await rawConnection(listener.port)
    const first = await reused.send(GET('/work'))
    expect(first.headers.connection).toBe('keep-alive')
    const upgrader = await rawConnection(listener.port)
    expect((await upgrader.send(GET('/work'))).status).toBe(200)
    const silent = await silentConnection(listener.port)

    const began = performance.now()
    const closing = listener.close({ idle: 'wait', timeoutMs: 5000 })
    expect(app.state).toBe('draining')
    expect(await connectOutcome(listener.port)).toBe('ECONNREFUSED')
    const second = await reused.send(GET('/readyz'))
    expect({ status: second.status, body: second.body, connection: second.headers.connection }).toEqual({
      status: 503,
      body: '{"status":"draining"}',
      connection: 'close',
    })
    await reused.closed
    const refused = await upgrader.send(
      'GET /ws HTTP/1.1\r\nhost: x\r\nconnection: upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    )
    expect({ status: refused.status, body: refused.body, connection: refused.headers.connection }).toEqual({
      status: 503,
      body: '{"error":"Service Unavailable: the server is shutting down"}',
      connection: 'close',
    })
    // Given the keep-alive timeout from the drain, not closed at once.
    expect((await silent.closed) - began).toBeGreaterThanOrEqual(390)
    await closing
    expect(performance.now() - began).toBeLessThan(3000)
  })

  it("'wait' is bounded by timeoutMs: an idle connection left past it is dropped", async () => {
    const app = appWith(10_000)
    const listener = await listen(app, { port: 0, host: '127.0.0.1' })
    const idle = await rawConnection(listener.port)
    await idle.send(GET('/work'))
    const began = performance.now()
    await listener.close({ timeoutMs: 200 })
    await idle.closed
    expect(performance.now() - began).toBeLessThan(2000)
    // A second close is the same close.
    await listener.close()
  })

  it("'close': idle keep-alive connections close at once", async () => {
    const app = appWith(10_000)
    const listener = await listen(app, { port: 0, host: '127.0.0.1' })
    const idle = await rawConnection(listener.port)
    await idle.send(GET('/work'))
    const began = performance.now()
    await listener.close({ idle: 'close' })
    await idle.closed
    expect(performance.now() - began).toBeLessThan(1000)
  })
})

describe('addresses', () => {
  it('a listener on every interface has its bound address and a URL a local client can use', async () => {
    const listener = await listen(appWith(1000), { port: 0, host: '0.0.0.0' })
    try {
      expect(listener.address).toBe(`http://0.0.0.0:${listener.port}`)
      expect(listener.url).toBe(`http://127.0.0.1:${listener.port}`)
      expect(listeningOn(listener)).toBe(`http://0.0.0.0:${listener.port} (all interfaces)`)
      expect((await fetch(`${listener.url}/work`)).status).toBe(200)
    } finally {
      await listener.close({ idle: 'close' })
    }
  })

  it('a listener on one address names it', async () => {
    const listener = await listen(appWith(1000), { port: 0, host: '127.0.0.1' })
    expect(listeningOn(listener)).toBe(`http://127.0.0.1:${listener.port}`)
    await listener.close({ idle: 'close' })
  })
})
