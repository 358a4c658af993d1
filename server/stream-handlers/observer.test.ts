// A stream handler written only with vela's exports, as a third party would write one: the
// runtime calls its observer the same way for in-process requests, node's requests and WebSocket
// upgrades (facts at the start, `run` around the rest, `end` with status, body bytes and route),
// per-request state kept on the facts reaches plugins as `req.facts`, and a failing observer
// costs one request a 500, never the server.
import { AsyncLocalStorage } from 'node:async_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { RequestFacts, RequestOutcome, RouteGroup, StreamHandler, VelaRequest } from '../index.ts'
import { createApp, defineStreamHandler, definePlugin, defineWebSocket, json, ok, status } from '../index.ts'
import type { TestServer } from '../testing/index.ts'
import { inject, startTestServer } from '../testing/index.ts'

interface Seen {
  kind: string
  method: string
  path: string
  host: string
  peer: string | undefined
  userAgent: string | undefined
  requestBodySize: number | undefined
  status: number
  bytes: number
  route: string | undefined
  tenant: unknown
}

/** Ends as an observer reports them; `next()` resolves with the next one (no polling). */
function endings<T>() {
  const queue: T[] = []
  const waiting: ((s: T) => void)[] = []
  return {
    push(s: T) {
      const w = waiting.shift()
      if (w) w(s)
      else queue.push(s)
    },
    next: () => new Promise<T>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve))),
  }
}

// Per-request state, keyed by the facts object the observer was given.
const tenants = new WeakMap<RequestFacts, { tenant?: string }>()
const trace = new AsyncLocalStorage<string>()
const ends = endings<Seen>()
let upgradeTrace: string | undefined

const counter: StreamHandler = defineStreamHandler({
  name: 'counter',
  observe: () => (facts) => {
    const state: { tenant?: string } = {}
    tenants.set(facts, state)
    const started = {
      kind: facts.kind,
      method: facts.method,
      path: facts.path,
      host: facts.host,
      peer: facts.peer,
      userAgent: facts.userAgent,
      requestBodySize: facts.requestBodySize,
    }
    return {
      run: (next) => trace.run(`trace of ${facts.method} ${facts.path}`, next),
      end: (outcome: RequestOutcome) =>
        ends.push({
          ...started,
          status: outcome.status,
          bytes: outcome.responseBodySize,
          route: outcome.route?.path,
          tenant: state.tenant,
        }),
    }
  },
})

const tagTenant = definePlugin({
  name: 'tag-tenant',
  info: {
    title: 'Tag tenant',
    version: '0.0.0',
    author: 'test',
    description: 'records the tenant for the observer',
    options: {},
  },
  preRequest(req: VelaRequest) {
    const state = tenants.get(req.facts)
    if (state) state.tenant = req.header('x-tenant') ?? 'none'
    return ok()
  },
})

const group: RouteGroup = {
  prefix: '',
  security: (req) => {
    if (req.path !== '/ws') return true
    upgradeTrace = trace.getStore()
    return req.query.token === 'ok'
  },
  plugins: [tagTenant()],
  routes: [
    ['GET /hello', () => json({ hello: 'world', trace: trace.getStore() ?? null })],
    ['POST /echo', async (req) => status(201, await req.readBody(), { headers: { 'content-type': 'text/plain' } })],
    ['/ws', defineWebSocket({ open: (peer) => void peer.send('welcome') }), { protocol: 'ws' }],
  ],
}

const app = createApp(
  { bootstrapApplication: 'observed', server: { streamHandlers: [counter, 'default'] }, routes: { r: group } },
  { env: {}, log: () => {} },
)

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(app)
})
afterAll(() => server.close({ timeoutMs: 1000 }))

for (const mode of ['in-process', 'http'] as const) {
  describe(`an observer made with vela's exports [${mode}]`, () => {
    const request = (opts: Parameters<typeof inject>[1]) => (mode === 'http' ? server.request(opts) : inject(app, opts))

    it('sees a routed request: its facts at the start, then status, body bytes and route, and runs the rest inside run', async () => {
      const res = await request({ url: '/hello?x=1', headers: { 'user-agent': 'observer-test', 'x-tenant': 'acme' } })
      const body = await res.text()
      expect(JSON.parse(body)).toEqual({ hello: 'world', trace: 'trace of GET /hello' })
      expect(await ends.next()).toEqual({
        kind: 'http',
        method: 'GET',
        path: '/hello',
        host: mode === 'http' ? '127.0.0.1' : 'localhost',
        peer: '127.0.0.1',
        userAgent: 'observer-test',
        requestBodySize: 0,
        status: 200,
        bytes: Buffer.byteLength(body),
        route: '/hello',
        tenant: 'acme',
      })
    })

    it('sees requests no route took (404, 405) and request bodies', async () => {
      const missing = await request('/nowhere')
      const missingBody = await missing.text()
      expect(await ends.next()).toMatchObject({
        path: '/nowhere',
        status: 404,
        bytes: Buffer.byteLength(missingBody),
        route: undefined,
        tenant: undefined,
      })
      await (await request({ url: '/hello', method: 'DELETE' })).text()
      expect(await ends.next()).toMatchObject({ method: 'DELETE', status: 405, route: undefined })
      const echoed = await request({
        url: '/echo',
        method: 'POST',
        body: 'twelve bytes',
        headers: { 'content-type': 'text/plain' },
      })
      expect(await echoed.text()).toBe('twelve bytes')
      expect(await ends.next()).toMatchObject({
        method: 'POST',
        requestBodySize: 12,
        status: 201,
        bytes: 12,
        route: '/echo',
      })
    })
  })
}

describe("an observer made with vela's exports [WebSocket upgrade]", () => {
  const connect = (query: string) =>
    new WebSocket(`${server.url.replace('http', 'ws')}/ws${query}`, { headers: { 'x-tenant': 'ws-co' } })

  it("sees an accepted upgrade as a 101 with no body and its route; the upgrade's plugins and security run inside run", async () => {
    upgradeTrace = undefined
    const ws = connect('?token=ok')
    const greeting = await new Promise<string>(
      (resolve, reject) => (ws.once('message', (m) => resolve(String(m))), ws.once('error', reject)),
    )
    ws.close()
    expect(greeting).toBe('welcome')
    expect(upgradeTrace).toBe('trace of GET /ws')
    expect(await ends.next()).toMatchObject({
      kind: 'upgrade',
      method: 'GET',
      path: '/ws',
      status: 101,
      bytes: 0,
      route: '/ws',
      tenant: 'ws-co',
    })
  })

  it('sees a refused upgrade with the refusal status and the bytes written on the socket', async () => {
    const ws = connect('')
    const code = await new Promise<number>(
      (resolve) => (
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)), ws.once('error', () => resolve(-1))
      ),
    )
    expect(code).toBe(401)
    expect(await ends.next()).toMatchObject({
      kind: 'upgrade',
      status: 401,
      bytes: JSON.stringify({ error: 'Unauthorized' }).length,
      route: '/ws',
    })
  })
})

describe('a failing observer', () => {
  const outer = endings<{ status: number; error: unknown }>()
  const watchOuter = defineStreamHandler({
    name: 'outer',
    observe: () => () => ({ end: (o) => outer.push({ status: o.status, error: o.error }) }),
  })
  const throwing = defineStreamHandler({
    name: 'throwing',
    observe: () => (facts) => {
      if (facts.header('x-fail') === 'start') throw new Error('observer failed')
      if (facts.header('x-fail') === 'run') return { run: () => {}, end: () => {} } // forgets to call next
      return {
        end: () => {
          throw new Error('end failed')
        },
      }
    },
  })
  const failing = createApp(
    {
      bootstrapApplication: 'failing',
      server: { streamHandlers: [watchOuter, throwing, 'default'] },
      routes: { r: { prefix: '', security: false, routes: [['GET /ok', () => json({ ok: true })]] } },
    },
    { env: {}, log: () => {} },
  )

  it('costs that request the 500 page (the outer observers see it with the error), and the next request is served', async () => {
    for (const how of ['start', 'run']) {
      const res = await inject(failing, { url: '/ok', headers: { 'x-fail': how, accept: 'application/json' } })
      expect(res.status, how).toBe(500)
      expect(await res.json()).toEqual({ error: 'Internal Server Error' })
      const seen = await outer.next()
      expect(seen.status).toBe(500)
      expect(seen.error).toBeInstanceOf(Error)
    }
    // An `end` that throws is logged; the response was already sent.
    const res = await inject(failing, '/ok')
    expect(await res.json()).toEqual({ ok: true })
    expect(await outer.next()).toMatchObject({ status: 200, error: undefined })
  })
})

// A list that also holds a low-level handler (one that changes responses) is composed from the
// low-level forms: the observer takes part through the forms derived from it, and sees the same.
for (const shape of ['with wrapNode', 'fetch-only'] as const) {
  describe(`an observer beside a low-level handler (${shape})`, () => {
    const stamp = defineStreamHandler({
      name: 'stamp',
      wrap: (next) => async (request) => {
        const res = await next(request)
        const headers = new Headers(res.headers)
        headers.set('x-stamp', 'fetch')
        return new Response(res.body, { status: res.status, headers })
      },
      ...(shape === 'with wrapNode'
        ? { wrapNode: (next) => (req, res) => (res.setHeader('x-stamp', 'node'), next(req, res)) }
        : {}),
    })
    const mixed = createApp(
      { bootstrapApplication: 'mixed', server: { streamHandlers: [counter, stamp, 'default'] }, routes: { r: group } },
      { env: {}, log: () => {} },
    )
    let mixedServer: TestServer
    beforeAll(async () => {
      mixedServer = await startTestServer(mixed)
    })
    afterAll(() => mixedServer.close({ timeoutMs: 1000 }))

    it('in-process and over HTTP: one end per request, with the route, the bytes and the state plugins set', async () => {
      for (const mode of ['in-process', 'http'] as const) {
        const opts = { url: '/hello', headers: { 'x-tenant': 'mixed-co' } }
        const res = await (mode === 'http' ? mixedServer.request(opts) : inject(mixed, opts))
        const body = await res.text()
        expect(res.headers.get('x-stamp'), mode).toBe(mode === 'http' && shape === 'with wrapNode' ? 'node' : 'fetch')
        expect(JSON.parse(body).trace, mode).toBe('trace of GET /hello')
        expect(await ends.next()).toMatchObject({
          kind: 'http',
          status: 200,
          bytes: Buffer.byteLength(body),
          route: '/hello',
          tenant: 'mixed-co',
        })
      }
    })

    it('WebSocket upgrades too', async () => {
      const ws = new WebSocket(`${mixedServer.url.replace('http', 'ws')}/ws?token=ok`)
      await new Promise((resolve, reject) => (ws.once('message', resolve), ws.once('error', reject)))
      ws.close()
      expect(await ends.next()).toMatchObject({ kind: 'upgrade', status: 101, bytes: 0, route: '/ws' })
    })
  })
}
