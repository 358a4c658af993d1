// The app-wide lifecycle, on each way a request can end: `onRequest` hooks run before routing for
// every request (they may add headers or answer at once), `req.setHeader` from a plugin or a
// handler reaches whatever reply is sent, every reply carries the request's id and goes through
// the `onResponse` hooks. In process (`app.fetch`) and over node's listener; upgrades at the end.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { IncomingRequest } from '../contracts/request-hook.ts'
import type { OutgoingResponse } from '../contracts/response.ts'
import { httpError } from '../errors/http-error.ts'
import { isVelaError } from '../errors/vela-error.ts'
import { definePlugin, ok, stop } from '../pipeline/plugin.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json, status } from '../replies.ts'
import { staticDir } from '../static/static-dir.ts'
import { defineWebSocket } from '../websocket/define.ts'

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }
const assets = mkdtempSync(join(tmpdir(), 'vela-lifecycle-'))
writeFileSync(join(assets, 'a.txt'), 'static text')

/** What the hooks saw, per request path: `onRequest <method> <path> <kind>` and `onResponse <status>`. */
const seen: string[] = []
const GENERATED = /^[\w-]{8}-[0-9a-z]+$/

const tagging = definePlugin({
  name: 'tagging',
  info,
  preRequest(req) {
    req.setHeader('X-Plugin', 'pre')
    if (req.path === '/plugin-stop') return stop(status(402, { error: 'pay first' }))
    return ok()
  },
})

const config = (): AppConfig => ({
  bootstrapApplication: 'lifecycle',
  server: { bodyLimit: 64 },
  onRequest: [
    function record(request: IncomingRequest) {
      seen.push(`onRequest ${request.method} ${request.path} ${request.kind}`)
      request.setHeader('x-on-request', request.id)
    },
    function gate(request: IncomingRequest) {
      if (request.header('x-block') === 'reply')
        return status(403, { error: 'blocked' }, { headers: { 'x-gate': 'closed' } })
      if (request.header('x-block') === 'response')
        return Promise.resolve(new Response('blocked later', { status: 451 }))
      if (request.header('x-block') === 'http-error') throw httpError(429, 'slow down')
      if (request.header('x-block') === 'throw') throw new Error('gate broke')
      if (request.header('x-block') === 'nonsense') return 42 as never
      return undefined
    },
  ],
  onResponse: [
    function record(res: OutgoingResponse) {
      seen.push(`onResponse ${res.status} ${res.header('x-request-id') === res.request.id ? 'id' : 'no id'}`)
    },
  ],
  routes: {
    r: [
      {
        prefix: '',
        security: false,
        plugins: [tagging(), requestPlugin({ json: true })],
        routes: [
          [
            'GET /ok',
            (req) => {
              req.setHeader('x-handler', 'h')
              req.setHeader('x-mine', 'from setHeader')
              return json({ id: req.id }, { headers: { 'x-mine': 'from the reply' } })
            },
          ],
          [
            'GET /conflict',
            () => {
              throw httpError(409, 'taken')
            },
          ],
          [
            'GET /boom',
            () => {
              throw new Error('kaboom')
            },
          ],
          ['POST /echo', (req) => json(req.params)],
          ['GET /plugin-stop', () => json({ reached: true })],
          ['/assets/[...]', staticDir(assets)],
        ],
      },
      {
        prefix: '/secure',
        security: () => false,
        routes: [['GET /thing', () => json({ secret: true })]],
      },
    ],
  },
})

describeModes('the app-wide lifecycle', config, (t) => {
  /** The reply's status, after checking what every reply carries: the id, the onRequest header, the onResponse record. */
  const expectLifecycle = async (res: Response, path: string, method = 'GET') => {
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(GENERATED)
    expect(res.headers.get('x-on-request')).toBe(id)
    expect(seen).toEqual([`onRequest ${method} ${path} http`, `onResponse ${res.status} id`])
    seen.length = 0
    return id!
  }

  it('a handler reply: headers from the hook, the plugin and the handler (setHeader wins over the reply)', async () => {
    seen.length = 0
    const res = await t.request('/ok')
    expect(res.status).toBe(200)
    const id = await expectLifecycle(res, '/ok')
    expect(await res.json()).toEqual({ id })
    expect([res.headers.get('x-plugin'), res.headers.get('x-handler'), res.headers.get('x-mine')]).toEqual([
      'pre',
      'h',
      'from setHeader',
    ])
  })

  it("a plugin's stop carries the plugin's header", async () => {
    seen.length = 0
    const res = await t.request('/plugin-stop')
    expect(res.status).toBe(402)
    await expectLifecycle(res, '/plugin-stop')
    expect(res.headers.get('x-plugin')).toBe('pre')
  })

  it("a security callback's 401", async () => {
    seen.length = 0
    const res = await t.request('/secure/thing')
    expect(res.status).toBe(401)
    await expectLifecycle(res, '/secure/thing')
  })

  it('a thrown httpError, after the plugin set a header', async () => {
    seen.length = 0
    const res = await t.request('/conflict')
    expect(res.status).toBe(409)
    await expectLifecycle(res, '/conflict')
    expect(res.headers.get('x-plugin')).toBe('pre')
  })

  it("a thrown error's 500, logged with the request", async () => {
    t.expectLogged(/500 on GET \/boom/)
    seen.length = 0
    const res = await t.request('/boom')
    expect(res.status).toBe(500)
    await expectLifecycle(res, '/boom')
    expect(res.headers.get('x-plugin')).toBe('pre')
  })

  it('an unrouted 404 and a 405', async () => {
    seen.length = 0
    const missing = await t.request('/nowhere')
    expect(missing.status).toBe(404)
    await expectLifecycle(missing, '/nowhere')
    const wrong = await t.request({ url: '/ok', method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    await expectLifecycle(wrong, '/ok', 'DELETE')
  })

  it("a body over the limit (413) and malformed JSON (the request plugin's 400)", async () => {
    seen.length = 0
    const big = await t.request({ url: '/echo', method: 'POST', body: { text: 'x'.repeat(100) } })
    expect(big.status).toBe(413)
    await expectLifecycle(big, '/echo', 'POST')
    const malformed = await t.request({
      url: '/echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    })
    expect(malformed.status).toBe(400)
    await expectLifecycle(malformed, '/echo', 'POST')
    const good = await t.request({ url: '/echo', method: 'POST', body: { a: 1 } })
    expect(await good.json()).toEqual({ a: 1 })
    await expectLifecycle(good, '/echo', 'POST')
  })

  it('a static file', async () => {
    seen.length = 0
    const res = await t.request('/assets/a.txt')
    expect(await res.text()).toBe('static text')
    await expectLifecycle(res, '/assets/a.txt')
  })

  it('an onRequest hook answers at once with a reply or (async) a Response: nothing routes, onResponse still runs', async () => {
    seen.length = 0
    const reply = await t.request({ url: '/ok', headers: { 'x-block': 'reply' } })
    expect(reply.status).toBe(403)
    expect(await reply.json()).toEqual({ error: 'blocked' })
    expect(reply.headers.get('x-gate')).toBe('closed')
    expect(reply.headers.get('x-handler')).toBeNull()
    await expectLifecycle(reply, '/ok')
    const later = await t.request({ url: '/nowhere', headers: { 'x-block': 'response' } })
    expect(later.status).toBe(451)
    expect(await later.text()).toBe('blocked later')
    await expectLifecycle(later, '/nowhere')
  })

  it("an onRequest hook that throws: an httpError's status, anything else a logged 500", async () => {
    seen.length = 0
    const limited = await t.request({ url: '/ok', headers: { 'x-block': 'http-error' } })
    expect(limited.status).toBe(429)
    await expectLifecycle(limited, '/ok')
    t.expectLogged(/500 on GET \/ok \(onRequest\.gate\).*gate broke/)
    t.expectLogged(/onRequest hook gate returned 42/)
    const broken = await t.request({ url: '/ok', headers: { 'x-block': 'throw' } })
    expect(broken.status).toBe(500)
    await expectLifecycle(broken, '/ok')
    const nonsense = await t.request({ url: '/ok', headers: { 'x-block': 'nonsense' } })
    expect(nonsense.status).toBe(500)
    await expectLifecycle(nonsense, '/ok')
  })
})

const upgradeHeaders = {
  upgrade: 'websocket',
  connection: 'upgrade',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
}

it('WebSocket upgrades: onRequest sees them; its answer, a security 401 and a 404 are refusals with the id; an accepted 101 has it too', async () => {
  const kinds: string[] = []
  const statuses: number[] = []
  const app = createApp(
    {
      bootstrapApplication: 'upgrades',
      onRequest: [
        (request) => {
          kinds.push(`${request.kind} ${request.path}`)
          request.setHeader('x-on-request', 'yes')
          return request.header('x-block') ? status(403) : undefined
        },
      ],
      onResponse: [(res) => void statuses.push(res.status)],
      routes: {
        r: [
          { prefix: '/open', security: false, routes: [['/ws', defineWebSocket({}), { protocol: 'ws' }]] },
          { prefix: '/closed', security: () => false, routes: [['/ws', defineWebSocket({}), { protocol: 'ws' }]] },
        ],
      },
    },
    { env: {} },
  )
  const upgrade = (path: string, extra: Record<string, string> = {}) =>
    app.upgrade(new Request(`http://localhost${path}`, { headers: { ...upgradeHeaders, ...extra } }))
  for (const [path, extra, expected] of [
    ['/open/ws', { 'x-block': '1' }, 403],
    ['/closed/ws', {}, 401],
    ['/nowhere', {}, 404],
  ] as const) {
    const decision = await upgrade(path, extra)
    expect(decision.accept).toBe(false)
    if (decision.accept) continue
    expect(decision.response.status).toBe(expected)
    expect(decision.response.headers.get('x-request-id')).toMatch(GENERATED)
    expect(decision.response.headers.get('x-on-request')).toBe('yes')
  }
  const accepted = await upgrade('/open/ws')
  expect(accepted.accept).toBe(true)
  if (accepted.accept) {
    expect(accepted.headers.get('x-request-id')).toBe(accepted.context.req.id)
    expect(accepted.headers.get('x-on-request')).toBe('yes')
  }
  expect(kinds).toEqual(['upgrade /open/ws', 'upgrade /closed/ws', 'upgrade /nowhere', 'upgrade /open/ws'])
  expect(statuses).toEqual([403, 401, 404, 101])
})

it('onRequest must be a list of functions; req.setHeader refuses the framing headers and cookies', async () => {
  let error: unknown
  try {
    createApp({ bootstrapApplication: 'x', onRequest: {} as never }, { env: {} })
  } catch (err) {
    error = err
  }
  expect(isVelaError(error, 'VELA_ERR_CONFIG')).toBe(true)
  expect((error as Error).message).toContain('onRequest must be a list of functions')

  const failures: string[] = []
  const app = createApp(
    {
      bootstrapApplication: 'x',
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [
            [
              'GET /h',
              (req) => {
                for (const [name, value] of [
                  ['content-length', '1'],
                  ['Set-Cookie', 'a=1'],
                  ['x-bad', 'line\nbreak'],
                ]) {
                  try {
                    req.setHeader(name!, value!)
                  } catch (err) {
                    failures.push((err as Error).message)
                  }
                }
                return json({ ok: true })
              },
            ],
          ],
        },
      },
    },
    { env: {} },
  )
  const res = await app.fetch(new Request('http://localhost/h'))
  expect(res.status).toBe(200)
  expect(failures).toEqual([
    'req.setHeader("content-length"): the reply sets its own length',
    `req.setHeader("Set-Cookie"): a request sets cookies with req.setCookie(name, value, options)`,
    expect.stringContaining('reply header x-bad: its value has U+000A'),
  ])
})
