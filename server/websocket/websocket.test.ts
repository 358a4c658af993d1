// WebSocket routes (a route with `protocol: 'ws'`): hooks, the group's security deciding the
// upgrade (401 before upgrading, a reply sent as is), authData reaching the handler, the
// production listener and test servers, 1001 on shutdown. Real sockets, real `ws` client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { until } from '../../test/support/until.ts'
import WebSocket from 'ws'
import { createApp } from '../app/create-app.ts'
import type { PluginEntry } from '../pipeline/registration.ts'
import { rateLimitPlugin } from '../plugins/rate-limit/index.ts'
import { json, redirect, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import { csrfPlugin } from '../plugins/csrf.ts'
import { sessionPlugin } from '../plugins/session/plugin.ts'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { defineWebSocket } from './define.ts'
import { strictLog } from '../../test/support/logs.ts'

const closes: Array<{ code?: number; reason?: string; user?: string }> = []
const logs = strictLog()

const echo = defineWebSocket<{ user: string }>({
  open(peer) {
    peer.send(`welcome ${peer.context.authData.user} to ${peer.context.bindings.room}`)
  },
  message(peer, message) {
    const text = message.text()
    if (text === 'boom') throw new Error('hook failed')
    if (text === 'who')
      return void peer.send(JSON.stringify({ session: peer.context.req.session, peer: peer.context.req.peer }))
    peer.send(`echo: ${text}`)
  },
  close(peer, details) {
    closes.push({ ...details, user: peer.context.authData.user })
  },
})
const open = defineWebSocket({ open: (peer) => void peer.send(`open ${JSON.stringify(peer.context.authData)}`) })

const security = (req: VelaRequest) => {
  const token = req.query.token
  if (token === 'alice' || token === 'bob') return { user: token }
  if (token === 'forbidden') return status(403, { error: 'not this room' })
  if (token === 'login') return redirect('/login')
  if (token === 'throw') throw new Error('security exploded')
  return false
}
const limit: PluginEntry = rateLimitPlugin({ maxRequests: 2 })
const sessionOptions = { secret: 'websocket-test-secret-0123456789abcdef' }
// The csrf plugin puts a new token in the session, so the upgrade changes the session.
const withCsrf: PluginEntry[] = [sessionPlugin(sessionOptions), csrfPlugin()]

const app = createApp(
  {
    bootstrapApplication: 'ws-app',
    routes: {
      ws: [
        {
          prefix: '/rooms',
          security,
          plugins: [sessionPlugin({ secret: 'websocket-test-secret-0123456789abcdef' })],
          routes: [['/:room', echo, { protocol: 'ws' }]],
        },
        { prefix: '/open', security: false, routes: [['/', open, { protocol: 'ws' }]] },
        { prefix: '/limited', security: false, plugins: [limit], routes: [['/', open, { protocol: 'ws' }]] },
        { prefix: '/csrf', security: false, plugins: withCsrf, routes: [['/', open, { protocol: 'ws' }]] },
        { prefix: '/http', security: false, routes: [['GET /', () => json({ plain: true })]] },
      ],
    },
  },
  { env: {}, log: logs.log },
)

/** Opens a socket; resolves with it and its first message, or rejects with the HTTP status of a refusal. */
function connect(
  url: string,
): Promise<{ ws: WebSocket; first: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    let headers: Record<string, string | string[] | undefined> = {}
    ws.once('upgrade', (res) => (headers = res.headers))
    ws.once('message', (data) => resolve({ ws, first: String(data), headers }))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () =>
        reject(
          Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body, headers: res.headers }),
        ),
      )
    })
    ws.once('error', reject)
  })
}
const next = (ws: WebSocket) => new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))))
const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )

describe('WebSocket routes over a real server', () => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startTestServer(app)
    base = server.url.replace('http', 'ws')
  })
  afterAll(() => server.close({ timeoutMs: 1000 }))

  it('the security callback allows the upgrade; its authData and the bindings reach the hooks; messages echo', async () => {
    const { ws, first } = await connect(`${base}/rooms/lobby?token=alice`)
    expect(first).toBe('welcome alice to lobby')
    ws.send('hi')
    expect(await next(ws)).toBe('echo: hi')
    ws.send('who')
    expect(JSON.parse(await next(ws))).toEqual({ session: {}, peer: '127.0.0.1' })
    const done = closed(ws)
    ws.close(4000, 'bye')
    await done
    await until('the close hook ran', () => closes.some((c) => c.code === 4000)).catch(() => {}) // a wrong call fails below
    expect(closes).toContainEqual({ code: 4000, reason: 'bye', user: 'alice' })
  })

  it('security false: 401 before upgrading (no socket opens)', async () => {
    await expect(connect(`${base}/rooms/lobby`)).rejects.toMatchObject({
      status: 401,
      body: JSON.stringify({ error: 'Unauthorized' }),
    })
  })

  it('a reply from security is sent as is; a throwing callback is a 500', async () => {
    await expect(connect(`${base}/rooms/lobby?token=forbidden`)).rejects.toMatchObject({
      status: 403,
      body: JSON.stringify({ error: 'not this room' }),
    })
    await expect(connect(`${base}/rooms/lobby?token=login`)).rejects.toMatchObject({
      status: 302,
      headers: { location: '/login' },
    })
    logs.expectLogged(/^500 on GET \/rooms\/lobby .*: Error: security exploded$/)
    await expect(connect(`${base}/rooms/lobby?token=throw`)).rejects.toMatchObject({ status: 500 })
  })

  it('a route without security gets {} as authData', async () => {
    const { ws, first } = await connect(`${base}/open`)
    expect(first).toBe('open {}')
    ws.close()
  })

  it("the group's pre-request plugins run on the upgrade: the rate limit refuses the third with 429", async () => {
    const a = await connect(`${base}/limited`)
    const b = await connect(`${base}/limited`)
    await expect(connect(`${base}/limited`)).rejects.toMatchObject({ status: 429 })
    a.ws.close()
    b.ws.close()
  })

  it('cookies plugins set during the upgrade (a changed session) go out with the 101', async () => {
    const { ws, headers } = await connect(`${base}/csrf`)
    expect(String(headers['set-cookie'])).toMatch(/^vela_session=Fe26\.2\*.*HttpOnly/i)
    ws.close()
  })

  it('an upgrade to an unknown path is a 404 and the connection is closed; to an HTTP route, its HTTP answer', async () => {
    await expect(connect(`${base}/nowhere`)).rejects.toMatchObject({ status: 404, headers: { connection: 'close' } })
    await expect(connect(`${base}/http`)).rejects.toMatchObject({ status: 200, body: JSON.stringify({ plain: true }) })
  })

  it('a plain HTTP request to a ws route is a 426 Upgrade Required', async () => {
    const res = await server.request('/open')
    expect(res.status).toBe(426)
    expect(res.headers.get('upgrade')).toBe('websocket')
  })

  it('a hook that throws is logged and its socket closed with 1011; the server keeps serving', async () => {
    const { ws } = await connect(`${base}/rooms/x?token=bob`)
    const done = closed(ws)
    logs.expectLogged(/^WebSocket message hook of \/rooms\/:room failed/)
    ws.send('boom')
    expect((await done).code).toBe(1011)
    expect(logs.entries.some((e) => e.text.includes('WebSocket message hook of /rooms/:room failed'))).toBe(true)
    const again = await connect(`${base}/rooms/y?token=bob`)
    expect(again.first).toBe('welcome bob to y')
    again.ws.close()
  })
})

describe('WebSockets and shutdown', () => {
  it('closing the listener closes open sockets with 1001 and the close hook sees it', async () => {
    const server = await startTestServer(app)
    const base = server.url.replace('http', 'ws')
    const one = await connect(`${base}/rooms/a?token=alice`)
    const two = await connect(`${base}/rooms/b?token=bob`)
    expect(server.websockets.openCount).toBe(2)
    const codes = Promise.all([closed(one.ws), closed(two.ws)])
    await server.close({ timeoutMs: 2000 })
    expect((await codes).map((c) => c.code)).toEqual([1001, 1001])
    expect(server.websockets.openCount).toBe(0)
    expect(
      closes
        .filter((c) => c.code === 1001)
        .map((c) => c.user)
        .sort(),
    ).toEqual(['alice', 'bob'])
  })
})
