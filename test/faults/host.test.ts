/**
 * Two `Host` headers: HTTP/1.1 requires a 400, since the app and a proxy in front of it could each
 * act on a different one. node's parser used to keep the first and drop the other, so the request
 * was answered 200. Raw sockets to Vela's listener (fetch would never send two), for a route, a
 * 404, a health endpoint and a WebSocket upgrade; and a web `Request` with both through
 * `app.fetch`. One Host, and a repeated header that may repeat, still pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, defineWebSocket, json } from '../../server/index.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { strictLog } from '../support/logs.ts'
import { rawRequest } from '../support/raw-http.ts'

const logs = strictLog()
const app = createApp(
  {
    bootstrapApplication: 'host-faults',
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /who', (req) => json({ host: req.host, accept: req.header('accept') ?? null })],
          ['/ws', defineWebSocket({ open: (peer) => void peer.send('hello') }), { protocol: 'ws' }],
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

const TWO_HOSTS = { error: 'Bad Request: more than one Host header (or a Host with a comma)' }
const send = (head: string) => rawRequest(server.port, `${head}\r\nConnection: close\r\n\r\n`)

describe('two Host headers', () => {
  it("on node's listener: a 400 naming them, for a route, a 404, a health endpoint and a WebSocket upgrade", async () => {
    for (const target of ['/who', '/nowhere', '/livez']) {
      const res = await send(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example`)
      expect([target, res.status]).toEqual([target, 400])
      expect(JSON.parse(res.body)).toEqual(TWO_HOSTS)
    }
    const upgrade = await send(
      'GET /ws HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    )
    expect(upgrade.status).toBe(400)
  })

  it('one Host passes; a header that may repeat (Accept) is joined, as HTTP reads it', async () => {
    const res = await send(
      'GET /who HTTP/1.1\r\nHost: example.test:8080\r\nAccept: text/html\r\nAccept: application/json',
    )
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ host: 'example.test', accept: 'text/html, application/json' })
  })

  it('through app.fetch: a web Request carrying both is a 400 too', async () => {
    const headers = new Headers([
      ['host', 'example.test'],
      ['host', 'evil.example'],
    ])
    const res = await app.fetch(new Request('http://example.test/who', { headers }))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(TWO_HOSTS)
    expect(
      (await app.fetch(new Request('http://example.test/who', { headers: { host: 'example.test' } }))).status,
    ).toBe(200)
  })
})
