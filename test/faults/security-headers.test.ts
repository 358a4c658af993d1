/**
 * Security headers on every reply: whichever way a request ends (a route's 200, a redirect, a
 * static file, an unrouted 404, a 405, a 400 / 414 of routing, a security callback's 401, a plugin
 * that stops, a thrown `httpError`, a 500, a 413, a malformed JSON body, a handler deadline's 503,
 * a health endpoint, a stream handler's 500), the reply carries the headers of `securityHeaders()`,
 * in process (`app.fetch`) and over node's listener. The cases run on an app without observers (the
 * listener calls routing directly) and on one with a stream handler that observes every request
 * (its own entry points). A WebSocket upgrade that is refused carries them too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { AppConfig, StreamHandler } from '../../server/index.ts'
import {
  createApp,
  defineStreamHandler,
  defineWebSocket,
  definePlugin,
  httpError,
  json,
  redirect,
  requestPlugin,
  securityHeaders,
  staticDir,
  stop,
  status,
} from '../../server/index.ts'
import { describeModes } from '../support/modes.ts'
import type { ModeContext } from '../support/modes.ts'

const root = mkdtempSync(join(tmpdir(), 'vela-headers-'))
writeFileSync(join(root, 'app.css'), 'body { color: #222 }\n')
afterAll(() => rmSync(root, { recursive: true, force: true }))

const halt = definePlugin({
  name: 'halt',
  info: {
    title: 'Halt',
    version: '1.0.0',
    author: 'tests',
    description: 'answers 429 before the handler',
    options: {},
  },
  preRequest: () => stop(status(429, { error: 'slow down' })),
})
const never = () => new Promise<never>(() => {})

// Throws for one path only: the observer's failure is answered with the 500 page.
const failing: StreamHandler = defineStreamHandler({
  name: 'fails-on-one-path',
  observe: () => (facts) => {
    if (facts.path === '/observer-fails') throw new Error('observer failed')
    return { end() {} }
  },
})

const config = (streamHandlers?: StreamHandler[]): AppConfig => ({
  bootstrapApplication: 'headers',
  server: {
    bodyLimit: 64,
    maxUrlLength: 200,
    // Generous for every route (a busy machine reads the static file slowly); /slow has its own.
    handlerTimeout: 30_000,
    ...(streamHandlers ? { streamHandlers: [...streamHandlers, 'default'] } : {}),
  },
  onResponse: [securityHeaders()],
  routes: {
    r: [
      {
        prefix: '',
        security: false,
        routes: [
          ['GET /ok', () => json({ ok: true })],
          ['GET /moved', () => redirect('/ok')],
          [
            'GET /forbidden',
            () => {
              throw httpError(403, 'no entry')
            },
          ],
          [
            'GET /crash',
            () => {
              throw new Error('handler crashed')
            },
          ],
          ['GET /slow', never, { handlerTimeout: 100 }],
          ['/static/[...]', staticDir(root)],
          ['/ws', defineWebSocket({}), { protocol: 'ws' }],
        ],
      },
      {
        prefix: '/private',
        security: () => false,
        routes: [['GET /page', () => json({ secret: 1 })]],
      },
      {
        prefix: '/limited',
        security: false,
        plugins: [halt()],
        routes: [['GET /page', () => json({})]],
      },
      {
        prefix: '/api',
        security: false,
        plugins: [requestPlugin({ json: true })],
        routes: [['POST /echo', (req) => json(req.params)]],
      },
    ],
  },
})

/** Every way a request can end, with the status it ends with. */
const ENDINGS: readonly {
  name: string
  status: number
  req: Parameters<ModeContext['request']>[0]
  logged?: RegExp
}[] = [
  { name: 'a routed 200', status: 200, req: '/ok' },
  { name: 'a redirect', status: 302, req: '/moved' },
  { name: 'a static file', status: 200, req: '/static/app.css' },
  { name: 'an unrouted 404 (JSON)', status: 404, req: '/nowhere' },
  { name: 'an unrouted 404 (HTML)', status: 404, req: { url: '/nowhere', headers: { accept: 'text/html' } } },
  { name: 'a 405', status: 405, req: { url: '/ok', method: 'DELETE' } },
  { name: 'a 400 for invalid percent-encoding', status: 400, req: '/ok%zz' },
  { name: 'a 414', status: 414, req: `/ok?${'q'.repeat(300)}` },
  { name: "a security callback's 401", status: 401, req: '/private/page' },
  { name: 'a plugin that stops', status: 429, req: '/limited/page' },
  { name: 'a thrown httpError', status: 403, req: '/forbidden' },
  { name: 'a 500', status: 500, req: '/crash', logged: /500 on GET \/crash/ },
  { name: 'a 413', status: 413, req: { url: '/api/echo', method: 'POST', body: { text: 'x'.repeat(100) } } },
  {
    name: 'a 400 for a malformed JSON body',
    status: 400,
    req: { url: '/api/echo', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' },
  },
  { name: "a handler deadline's 503", status: 503, req: '/slow', logged: /503 on GET \/slow/ },
  { name: 'a health endpoint', status: 200, req: '/livez' },
]

function cases(t: ModeContext, withObserver: boolean) {
  for (const ending of ENDINGS) {
    it(`${ending.name} carries the security headers`, async () => {
      if (ending.logged) t.expectLogged(ending.logged)
      const res = await t.request(ending.req)
      await res.arrayBuffer()
      expect(res.status).toBe(ending.status)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      // Plain http: no HSTS.
      expect(res.headers.get('strict-transport-security')).toBeNull()
    })
  }
  if (withObserver) {
    it("a stream handler's 500 carries them", async () => {
      t.expectLogged(/a stream handler failed/)
      const res = await t.request('/observer-fails')
      expect(res.status).toBe(500)
      expect(res.headers.get('x-frame-options')).toBe('DENY')
    })
  }
}

describeModes('security headers on every reply', config(), (t) => cases(t, false), { root })
describeModes(
  'security headers on every reply, under an observing stream handler',
  config([failing]),
  (t) => cases(t, true),
  { root },
)

it('a refused WebSocket upgrade carries them (an accepted one is a 101 with no page to protect, and carries them too)', async () => {
  const app = createApp(
    {
      ...config(),
      routes: {
        r: [{ prefix: '', security: () => false, routes: [['/ws', defineWebSocket({}), { protocol: 'ws' }]] }],
      },
    },
    { env: {}, root },
  )
  const headers = {
    upgrade: 'websocket',
    connection: 'upgrade',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'sec-websocket-version': '13',
  }
  const refused = await app.upgrade(new Request('http://localhost/ws', { headers }))
  expect(refused.accept).toBe(false)
  if (!refused.accept) {
    expect(refused.response.status).toBe(401)
    expect(refused.response.headers.get('x-frame-options')).toBe('DENY')
  }
  const open = createApp(config(), { env: {}, root })
  const accepted = await open.upgrade(new Request('http://localhost/ws', { headers }))
  expect(accepted.accept).toBe(true)
  if (accepted.accept) expect(accepted.headers.get('x-content-type-options')).toBe('nosniff')
})
