/**
 * WebSocket connections that are checked and bounded (Origin, message rate, idle connections), over
 * a real listener and real sockets.
 *
 * - Origin: an upgrade from another site's page is a logged 403 before the group's plugins and
 *   security callback run (a cookie-trusting callback would otherwise open the socket as the
 *   signed-in user); the app's own origin, no `Origin` (not a browser), a listed origin, `'*'` and
 *   a function's yes pass; behind a trusted proxy the scheme comes from `X-Forwarded-Proto`.
 * - Rate: a client sending over `maxMessagesPerSecond` is closed with 1008 and the hook sees only
 *   what the rate allowed; one under it stays.
 * - Idle: a raw client that completes the handshake and then ignores the socket (never answers a
 *   ping) has its socket destroyed after `idleTimeout` (the close hook sees 1006); a `ws` client,
 *   which answers pings by itself, stays open through several timeouts.
 *
 * Timeouts here are short (1 s) and every wait is a bounded poll; about 8 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createApp } from '../../server/app/create-app.ts'
import { definePlugin, ok } from '../../server/pipeline/plugin.ts'
import type { VelaRequest } from '../../server/request.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { defineWebSocket } from '../../server/websocket/define.ts'
import { strictLog } from '../support/logs.ts'
import { openRawWebSocket } from '../support/raw-websocket.ts'
import { until } from '../support/until.ts'

const logs = strictLog()
const seen = { plugin: 0, security: 0 }
const closes: Array<{ id: string; code?: number; reason?: string }> = []
const received: Record<string, number> = {}

const counting = definePlugin({
  name: 'counting',
  info: {
    title: 'Counting',
    version: '0.0.0',
    author: 'test',
    description: 'counts the requests it sees',
    options: {},
  },
  preRequest: (req: VelaRequest) => (seen.plugin++, ok(req)),
})
const echo = defineWebSocket({ message: (peer, message) => void peer.send(`echo: ${message.text()}`) })
/** Counts what reaches `message` and records the close, under the `id` query parameter. */
const track = (options: Parameters<typeof defineWebSocket>[1]) =>
  defineWebSocket(
    {
      open: (peer) => void peer.send('ready'),
      message(peer, message) {
        const id = String(peer.context.req.query.id)
        received[id] = (received[id] ?? 0) + 1
        peer.send(`echo: ${message.text()}`)
      },
      close: (peer, details) => void closes.push({ id: String(peer.context.req.query.id), ...details }),
    },
    options,
  )

const app = (trustProxy: string[] = []) =>
  createApp(
    {
      bootstrapApplication: 'ws-abuse',
      server: { trustProxy, websocket: { allowedOrigins: ['http://localhost:5173'] } },
      routes: {
        ws: [
          {
            prefix: '/signed-in',
            plugins: [counting()],
            security: () => (seen.security++, { user: 'alice' }),
            routes: [
              ['/', echo, { protocol: 'ws' }],
              [
                '/listed',
                defineWebSocket({ message: () => {} }, { allowedOrigins: ['https://app.example.com'] }),
                { protocol: 'ws' },
              ],
              ['/any', defineWebSocket({ message: () => {} }, { allowedOrigins: '*' }), { protocol: 'ws' }],
              [
                '/subdomains',
                defineWebSocket({ message: () => {} }, { allowedOrigins: (origin) => origin.endsWith('.example.org') }),
                { protocol: 'ws' },
              ],
              [
                '/broken',
                defineWebSocket(
                  { message: () => {} },
                  {
                    allowedOrigins: () => {
                      throw new Error('origin list unavailable')
                    },
                  },
                ),
                { protocol: 'ws' },
              ],
            ],
          },
          {
            prefix: '/limits',
            security: false,
            routes: [
              ['/rate', track({ maxMessagesPerSecond: 10 }), { protocol: 'ws' }],
              ['/idle', track({ idleTimeout: 1000 }), { protocol: 'ws' }],
            ],
          },
        ],
      },
    },
    { env: {}, log: logs.log },
  )

/** Opens `url` with `headers`: the 101's outcome (`open`), or the refusal's status and body. */
function attempt(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => (ws.close(), resolve({ status: 101, body: '' })))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    ws.once('error', reject)
  })
}

/** A `ws` client open on `url`, once the route said `ready`. */
function ready(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('message', () => resolve(ws))
    ws.once('error', reject)
  })
}

describe('WebSocket upgrades check Origin (allowedOrigins)', () => {
  let server: TestServer
  let base: string
  let own: string
  beforeAll(async () => {
    server = await startTestServer(app())
    base = server.url.replace('http', 'ws')
    own = server.url
  })
  afterAll(() => server.close({ timeoutMs: 1000 }))
  const counted = () => ({ ...seen })

  it("a page of another site: 403 with a body saying why, logged, and neither the group's plugins nor its security callback ran", async () => {
    const before = counted()
    logs.expectLogged(
      /^403 on GET \/signed-in\/ \(.*\): WebSocket upgrade from origin "https:\/\/evil\.example" refused: not the app's own origin and not in allowedOrigins$/,
    )
    const refused = await attempt(`${base}/signed-in/`, { origin: 'https://evil.example', accept: 'application/json' })
    expect(refused).toEqual({
      status: 403,
      body: JSON.stringify({
        error: 'Forbidden: this WebSocket route does not accept connections from pages of https://evil.example',
      }),
    })
    expect(counted()).toEqual(before)
    expect(server.websockets.openCount).toBe(0)
  })

  it("the app's own origin passes (through plugins and security); so does a request without Origin (not a browser)", async () => {
    const before = counted()
    expect((await attempt(`${base}/signed-in/`, { origin: own })).status).toBe(101)
    expect((await attempt(`${base}/signed-in/`)).status).toBe(101)
    expect(counted()).toEqual({ plugin: before.plugin + 2, security: before.security + 2 })
    // The same host on another port, or over https, is another origin.
    const port = Number(new URL(own).port)
    logs.expectLogged(/^403 on GET \/signed-in\/ .*WebSocket upgrade from origin "http:\/\/127\.0\.0\.1:\d+" refused/)
    logs.expectLogged(/^403 on GET \/signed-in\/ .*WebSocket upgrade from origin "https:\/\/127\.0\.0\.1:\d+" refused/)
    expect((await attempt(`${base}/signed-in/`, { origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403)
    expect((await attempt(`${base}/signed-in/`, { origin: own.replace('http:', 'https:') })).status).toBe(403)
  })

  it("server.websocket.allowedOrigins lists more origins; a route's own list replaces it; '*' and a function decide for theirs", async () => {
    expect((await attempt(`${base}/signed-in/`, { origin: 'http://localhost:5173' })).status).toBe(101)
    expect((await attempt(`${base}/signed-in/listed`, { origin: 'https://app.example.com' })).status).toBe(101)
    expect((await attempt(`${base}/signed-in/any`, { origin: 'https://evil.example' })).status).toBe(101)
    expect((await attempt(`${base}/signed-in/subdomains`, { origin: 'https://chat.example.org' })).status).toBe(101)
    logs.expectLogged(/^403 on GET \/signed-in\/listed .*"http:\/\/localhost:5173" refused/)
    logs.expectLogged(/^403 on GET \/signed-in\/subdomains .*"https:\/\/example\.org\.evil\.example" refused/)
    expect((await attempt(`${base}/signed-in/listed`, { origin: 'http://localhost:5173' })).status).toBe(403)
    expect((await attempt(`${base}/signed-in/subdomains`, { origin: 'https://example.org.evil.example' })).status).toBe(
      403,
    )
  })

  it('an allowedOrigins function that throws is logged and allows no other origin; the own origin needs no call', async () => {
    const before = counted()
    logs.expectLogged(/^allowedOrigins of WebSocket route \/signed-in\/broken failed: Error: origin list unavailable$/)
    logs.expectLogged(/^403 on GET \/signed-in\/broken .*"https:\/\/chat\.example\.org" refused/)
    expect((await attempt(`${base}/signed-in/broken`, { origin: 'https://chat.example.org' })).status).toBe(403)
    expect(counted()).toEqual(before)
    expect((await attempt(`${base}/signed-in/broken`, { origin: own })).status).toBe(101)
  })
})

describe('allowedOrigins behind a trusted proxy', () => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startTestServer(app(['127.0.0.1']))
    base = server.url.replace('http', 'ws')
  })
  afterAll(() => server.close({ timeoutMs: 1000 }))

  it("the site's own origin is its Host with the scheme the proxy forwarded (X-Forwarded-Proto)", async () => {
    const viaProxy = { host: 'chat.example.com', origin: 'https://chat.example.com', 'x-forwarded-proto': 'https' }
    expect((await attempt(`${base}/signed-in/`, viaProxy)).status).toBe(101)
    logs.expectLogged(/^403 on GET \/signed-in\/ .*"https:\/\/chat\.example\.com" refused/)
    expect((await attempt(`${base}/signed-in/`, { ...viaProxy, 'x-forwarded-proto': 'http' })).status).toBe(403)
  })
})

describe('WebSocket message rate and idle connections', () => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startTestServer(app())
    base = server.url.replace('http', 'ws')
  })
  afterAll(() => server.close({ timeoutMs: 1000 }))

  it('a client sending faster than maxMessagesPerSecond is closed with 1008; the hook saw no more than the burst', async () => {
    const ws = await ready(`${base}/limits/rate?id=flood`)
    let code: number | undefined
    ws.once('close', (c) => (code = c))
    for (let i = 0; i < 50; i++) ws.send(`m${i}`)
    await until('the connection closed', () => code !== undefined, 10_000)
    expect(code).toBe(1008)
    await until('the close hook', () => closes.some((c) => c.id === 'flood'))
    expect(closes.find((c) => c.id === 'flood')).toEqual({ id: 'flood', code: 1008, reason: 'Message rate exceeded' })
    // The bucket holds one second's worth (10); the eleventh closed the connection.
    expect(received.flood).toBeLessThanOrEqual(10)
    expect(received.flood).toBeGreaterThanOrEqual(9)
  })

  it('a client under the rate stays open', async () => {
    const ws = await ready(`${base}/limits/rate?id=calm`)
    for (let i = 0; i < 5; i++) {
      const answer = new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))))
      ws.send(`m${i}`)
      expect(await answer).toBe(`echo: m${i}`)
    }
    expect(ws.readyState).toBe(WebSocket.OPEN)
    ws.close()
  })

  it('a client that completes the handshake and then ignores the socket (no pong) is destroyed after idleTimeout; the close hook sees 1006', async () => {
    const raw = await openRawWebSocket(server.port, '/limits/idle?id=silent')
    raw.socket.pause()
    const start = performance.now()
    await until('the idle client closed', () => closes.some((c) => c.id === 'silent'), 10_000)
    // Pinged at the first sweep, destroyed at the next: between one and two timeouts.
    expect(performance.now() - start).toBeGreaterThanOrEqual(900)
    expect(closes.find((c) => c.id === 'silent')).toEqual({ id: 'silent', code: 1006, reason: 'Idle timeout' })
    await until('the socket gone from the listener', () => server.websockets.openCount === 0)
    raw.socket.destroy()
  })

  it('a client that answers pings (the ws client does) stays open through several timeouts, sending nothing', async () => {
    const ws = await ready(`${base}/limits/idle?id=answering`)
    let pings = 0
    ws.on('ping', () => pings++)
    await until('four pings', () => pings >= 4, 15_000)
    expect(ws.readyState).toBe(WebSocket.OPEN)
    expect(closes.some((c) => c.id === 'answering')).toBe(false)
    const answer = new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))))
    ws.send('still here')
    expect(await answer).toBe('echo: still here')
    ws.close()
  })
})
