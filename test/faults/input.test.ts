/**
 * Input faults (redirect targets taken from the request, where the CSRF token is read from,
 * prototype keys in decoded input, an empty JSON body), over real sockets on 127.0.0.1. One app,
 * served twice: by Vela's node listener (the node path) and by srvx's node adapter around
 * `app.fetch` (the web path, as on other runtimes), so every redirect case is seen on both. Raw
 * requests (test/support/raw-http.ts) where the bytes matter: a response that never comes is
 * status 0, a header smuggled through `Location` would be a line of its own.
 *
 * Sequential: the strict log is checked per case. Well under a second in all.
 */
import { serve } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createApp,
  csrfPlugin,
  json,
  redirect,
  requestPlugin,
  sessionPlugin,
  type PluginEntry,
  type VelaRequest,
} from '../../server/index.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { strictLog } from '../support/logs.ts'
import { rawRequest, type RawResponse } from '../support/raw-http.ts'

const logs = strictLog()

const decode: PluginEntry = requestPlugin({ json: true, urlencoded: true, query: true })
const session = { secret: 'input-faults-secret-long-enough-for-iron' }
let jsonHandled = 0

/** What an app doing the usual things with its input would get. */
function inspect(req: VelaRequest) {
  const copy = Object.assign({}, req.params) as Record<string, unknown>
  const profile = Object.assign({}, req.params.profile) as Record<string, unknown>
  return json({
    params: Object.keys(req.params),
    query: Object.keys(req.query),
    json: typeof req.json === 'object' && req.json !== null ? Object.keys(req.json) : null,
    paramsPlain: Object.getPrototypeOf(req.params) === Object.prototype,
    copyPlain: Object.getPrototypeOf(copy) === Object.prototype,
    isAdmin: copy.isAdmin ?? null,
    profileIsAdmin: profile.isAdmin ?? null,
  })
}

const app = createApp(
  {
    bootstrapApplication: 'input-faults',
    routes: {
      r: [
        {
          prefix: '',
          security: false,
          plugins: [decode],
          routes: [
            ['GET /go', (req) => redirect(req.query.to as string)],
            ['GET /named', (req) => json({ ok: true }, { headers: { 'x-name': req.query.name as string } })],
            ['GET /coded', (req) => json({ ok: true }, { status: Number(req.query.code) })],
            ['GET /after-login', (req) => redirect(req.query.next as string, { localOnly: true, fallback: '/home' })],
            ['/inspect', inspect, { methods: ['get', 'post'] }],
            ['POST /products', (req) => (jsonHandled++, json({ received: req.json ?? null }, { status: 201 }))],
          ],
        },
        {
          prefix: '/app',
          security: false,
          plugins: [decode, sessionPlugin(session), csrfPlugin()],
          routes: [
            [
              '/notes',
              (req) => json({ token: req.csrfToken, title: req.params.title ?? null }),
              { methods: ['get', 'post'] },
            ],
          ],
        },
      ],
    },
  },
  { env: {}, log: logs.log },
)

let node: TestServer
let web: ReturnType<typeof serve>
const ports = { node: 0, web: 0 }

beforeAll(async () => {
  node = await startTestServer(app)
  web = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await web.ready()
  ports.node = node.port
  ports.web = Number(new URL(web.url!).port)
})
afterAll(async () => {
  await node?.close({ timeoutMs: 1000 })
  await web?.close(true)
})

const get = (port: number, target: string) =>
  rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json\r\n\r\n`)
const post = (port: number, target: string, type: string, body: string) =>
  rawRequest(
    port,
    `POST ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
const summary = (r: RawResponse) => ({
  status: r.status,
  location: r.headers.location ?? null,
  setCookie: r.headers['set-cookie'] ?? null,
})

describe('redirect() to a target from the request', () => {
  for (const path of ['node', 'web'] as const) {
    it(`${path} path: € and /日本 are percent-encoded into Location, not an empty reply or a bare 500`, async () => {
      const euro = await get(ports[path], '/go?to=%E2%82%AC')
      expect(summary(euro)).toEqual({ status: 302, location: '%E2%82%AC', setCookie: null })
      const japan = await get(ports[path], '/go?to=/%E6%97%A5%E6%9C%AC?q=%C3%A9')
      expect(summary(japan)).toEqual({ status: 302, location: '/%E6%97%A5%E6%9C%AC?q=%C3%A9', setCookie: null })
      // An escape already in the target is kept as it is, not encoded twice.
      const escaped = await get(ports[path], '/go?to=/caf%25C3%25A9')
      expect(summary(escaped)).toEqual({ status: 302, location: '/caf%C3%A9', setCookie: null })
    })

    it(`${path} path: %0d%0a decoded to CR/LF is a 500 with a body and a log line naming the problem, no injected header`, async () => {
      logs.expectLogged(
        /^500 on GET \/go .*TypeError: redirect\(\): the target "\/a\\r\\nset-cookie: pwned=1" contains a control character \(CR, LF or another\), refused to prevent header injection/,
      )
      const res = await get(ports[path], '/go?to=/a%0d%0aset-cookie:%20pwned=1')
      expect(summary(res)).toEqual({ status: 500, location: null, setCookie: null })
      expect(JSON.parse(res.body)).toEqual({ error: 'Internal Server Error' })
      expect(res.raw).not.toContain('pwned')
    })

    it(`${path} path: a reply header outside Latin-1 is a 500 naming the header, not an empty reply; Latin-1 text passes`, async () => {
      logs.expectLogged(
        /^500 on GET \/named .*TypeError: reply header x-name: its value has U\+65E5 at index 0, which a header cannot carry/,
      )
      const bad = await get(ports[path], '/named?name=%E6%97%A5%E6%9C%AC')
      expect(bad.status).toBe(500)
      expect(JSON.parse(bad.body)).toEqual({ error: 'Internal Server Error' })
      const latin1 = await get(ports[path], '/named?name=caf%C3%A9')
      // node writes the header's text as UTF-8 (both paths end in node's writeHead here).
      expect([latin1.status, Buffer.from(latin1.headers['x-name']!, 'latin1').toString('utf8')]).toEqual([200, 'café'])
    })

    it(`${path} path: a reply status no response can have is a 500 naming it, not an empty reply`, async () => {
      logs.expectLogged(
        /^500 on GET \/coded .*TypeError: reply status 1000 is not one a response can have: give a whole number from 200 to 599/,
      )
      const bad = await get(ports[path], '/coded?code=1000')
      expect([bad.status, JSON.parse(bad.body)]).toEqual([500, { error: 'Internal Server Error' }])
      expect((await get(ports[path], '/coded?code=299')).status).toBe(299)
    })

    it(`${path} path: redirect(to, { localOnly: true }) sends another site, or a control character, to the fallback`, async () => {
      for (const next of [
        '//evil.example/',
        '/%5Cevil.example',
        'https://evil.example/',
        '/%09/evil.example',
        '/a%0d%0aset-cookie:%20pwned=1',
        '',
      ]) {
        const res = await get(ports[path], `/after-login?next=${next}`)
        expect([next, summary(res)]).toEqual([next, { status: 302, location: '/home', setCookie: null }])
      }
      const local = await get(ports[path], '/after-login?next=/notes/%E6%97%A5?tab=2')
      expect(summary(local)).toEqual({ status: 302, location: '/notes/%E6%97%A5?tab=2', setCookie: null })
    })
  }
})

describe('the CSRF token is read from the header or the body, never the query string', () => {
  it('POST /app/notes?_csrf_token=… with a JSON body is a 403; the same token in the header or the body passes', async () => {
    const page = await node.request('/app/notes')
    const cookie = page.headers.getSetCookie()[0]!.split(';', 1)[0]!
    const { token } = (await page.json()) as { token: string }
    const send = (url: string, headers: Record<string, string>, body: unknown) =>
      node.request({ method: 'POST', url, headers: { cookie, ...headers }, body })

    const inQuery = await send(`/app/notes?_csrf_token=${encodeURIComponent(token)}`, {}, { title: 'from a link' })
    expect(inQuery.status).toBe(403)
    expect(await inQuery.json()).toEqual({ error: 'Forbidden - CSRF token invalid' })
    const form = await send(
      `/app/notes?_csrf_token=${encodeURIComponent(token)}`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'title=form',
    )
    expect(form.status).toBe(403)

    expect((await send('/app/notes', { 'x-csrf-token': token }, { title: 'header' })).status).toBe(200)
    const field = await send(
      '/app/notes',
      { 'content-type': 'application/x-www-form-urlencoded' },
      `title=field&_csrf_token=${encodeURIComponent(token)}`,
    )
    expect(await field.json()).toMatchObject({ title: 'field' })
  })
})

describe('__proto__, constructor and prototype keys are dropped from decoded input', () => {
  const clean = { paramsPlain: true, copyPlain: true, isAdmin: null, profileIsAdmin: null }

  it('JSON body: top level and nested, also spelled with \\u escapes', async () => {
    const body =
      '{"__proto__":{"isAdmin":true},"profile":{"\\u005f_proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"name":"Ann"},"prototype":1,"title":"x"}'
    const res = await post(ports.node, '/inspect', 'application/json', body)
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({
      params: ['profile', 'title'],
      query: [],
      json: ['profile', 'title'],
      ...clean,
    })
  })

  it('query string, and req.params merged from it (the `query` option)', async () => {
    const res = await get(
      ports.node,
      '/inspect?__proto__=a&__proto__=b&%5F%5Fproto%5F%5F=c&constructor=d&prototype=e&page=2',
    )
    expect(JSON.parse(res.body)).toEqual({ params: ['page'], query: ['page'], json: null, ...clean })
  })

  it('form body', async () => {
    const res = await post(
      ports.node,
      '/inspect',
      'application/x-www-form-urlencoded',
      '__proto__=a&__proto__=b&constructor=c&prototype=d&title=x',
    )
    expect(JSON.parse(res.body)).toEqual({ params: ['title'], query: [], json: null, ...clean })
  })
})

describe('Content-Length: 0 under application/json', () => {
  it('is a 400 saying the JSON body is empty; the handler does not run', async () => {
    const before = jsonHandled
    for (const port of [ports.node, ports.web]) {
      const res = await post(port, '/products', 'application/json', '')
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body)).toEqual({ error: 'Bad Request: the JSON body is empty' })
    }
    expect(jsonHandled).toBe(before)
    expect((await post(ports.node, '/products', 'application/json', '{"a":1}')).status).toBe(201)
  })
})
