// A header the app, a plugin or a hook set on a reply is never replaced by a framework default;
// the defaults (the request id, the security headers, content types, the cache-control of health
// endpoints and static files) fill only what is missing. One case list run over every default
// header and every way an app sets one, on routed replies and on the framework's own pages (404,
// 405, an httpError's page, a 500), in process and over node's listener; upgrades at the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setCookie, setResponseHeader } from 'h3'
import { afterAll, expect, it } from 'vitest'
import type { ModeContext } from '../../test/support/modes.ts'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import type { OutgoingResponse } from '../contracts/response.ts'
import { httpError } from '../errors/http-error.ts'
import { definePlugin, ok } from '../pipeline/plugin.ts'
import { securityHeaders } from '../plugins/security-headers/index.ts'
import { json } from '../replies.ts'
import { staticDir } from '../static/static-dir.ts'
import { defineWebSocket } from '../websocket/define.ts'

const GENERATED = /^[\w-]{8}-[0-9a-z]+$/
const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }
const assets = mkdtempSync(join(tmpdir(), 'vela-default-headers-'))
writeFileSync(join(assets, 'a.txt'), 'static text')
afterAll(() => rmSync(assets, { recursive: true, force: true }))

/** The value the app gives `name`: told apart from any default. */
const appValue = (name: string) => `app:${name}`
/** How an app might write the name: `X-Request-Id`. */
const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())

/** Which header the app is to set and how, as the request asks (`x-test-name`, `x-test-by`). */
function wanted(facts: Pick<RequestFacts, 'header'>, by: string): string | undefined {
  return facts.header('x-test-by') === by ? facts.header('x-test-name') : undefined
}

const postPlugin = definePlugin({
  name: 'post-headers',
  info,
  postRequest(req) {
    const name = wanted(req, 'post plugin')
    if (name) req.setHeader(name, appValue(name))
    const replaced = wanted(req, "post plugin's reply")
    if (replaced) req.reply = json({}, { headers: { [titleCase(replaced)]: appValue(replaced) } })
    return ok()
  },
})

const preSetHeader = definePlugin({
  name: 'pre-headers',
  info,
  preRequest(req) {
    const name = wanted(req, 'pre plugin')
    if (name) req.setHeader(name, appValue(name))
    return ok()
  },
})

/** An `onResponse` hook setting the wanted header when the request asks for `by`. */
const responseHook = (by: string) =>
  function setting(res: OutgoingResponse) {
    const name = wanted(res.request, by)
    if (name) res.setHeader(titleCase(name), appValue(name))
  }

const config: AppConfig = {
  bootstrapApplication: 'defaults',
  // Behind a trusted proxy saying https: the full set of security headers, HSTS included.
  server: { trustProxy: ['127.0.0.1'] },
  onRequest: [
    (request) => {
      const name = wanted(request, 'onRequest hook')
      if (name) request.setHeader(name, appValue(name))
    },
  ],
  onResponse: [
    responseHook('onResponse hook before securityHeaders'),
    securityHeaders({ xDnsPrefetchControl: true, xPermittedCrossDomainPolicies: true, xXssProtection: true }),
    responseHook('onResponse hook after securityHeaders'),
  ],
  routes: {
    r: {
      prefix: '',
      security: false,
      plugins: [preSetHeader(), postPlugin()],
      routes: [
        [
          'GET /reply',
          (req) => {
            const own = wanted(req, "the handler's reply")
            if (own) return json({}, { headers: { [titleCase(own)]: appValue(own) } })
            const response = wanted(req, 'a Response')
            if (response) return new Response('{}', { headers: { [titleCase(response)]: appValue(response) } })
            const h3 = wanted(req, "h3's setResponseHeader")
            if (h3) setResponseHeader(req.event, titleCase(h3), appValue(h3))
            const added = wanted(req, 'req.setHeader')
            if (added) req.setHeader(titleCase(added), appValue(added))
            return json({})
          },
        ],
        [
          'GET /taken',
          (req) => {
            const name = wanted(req, "httpError's headers")
            throw httpError(409, 'taken', name ? { [titleCase(name)]: appValue(name) } : undefined)
          },
        ],
        [
          'GET /boom',
          () => {
            throw new Error('kaboom')
          },
        ],
        ['/assets/[...]', staticDir(assets, { maxAge: 60 })],
      ],
    },
  },
}

const HOOKS = ['onRequest hook', 'onResponse hook before securityHeaders', 'onResponse hook after securityHeaders']

/** Every default header the framework sends, and what it sends when the app sets nothing. */
const DEFAULTS: readonly [name: string, fallback: RegExp][] = [
  ['x-request-id', GENERATED],
  ['content-type', /^(application\/json|text\/html); charset=utf-8$/],
  ['content-security-policy', /^default-src 'self'; .*frame-ancestors 'none'/],
  ['cross-origin-opener-policy', /^same-origin$/],
  ['cross-origin-resource-policy', /^same-origin$/],
  ['origin-agent-cluster', /^\?1$/],
  ['referrer-policy', /^strict-origin-when-cross-origin$/],
  ['strict-transport-security', /^max-age=31536000; includeSubDomains$/],
  ['x-content-type-options', /^nosniff$/],
  ['x-frame-options', /^DENY$/],
  ['x-dns-prefetch-control', /^off$/],
  ['x-permitted-cross-domain-policies', /^none$/],
  ['x-xss-protection', /^0$/],
]

/** A way a request ends, and the ways an app may set a header on its reply. */
interface Ending {
  readonly name: string
  readonly url: string
  readonly method?: string
  readonly accept?: string
  readonly ways: readonly string[]
}

/** Replies routes make, and the framework's own pages. */
const ENDINGS: readonly Ending[] = [
  {
    name: 'a routed reply',
    url: '/reply',
    ways: [
      "the handler's reply",
      'a Response',
      "h3's setResponseHeader",
      'req.setHeader',
      'pre plugin',
      'post plugin',
      "post plugin's reply",
      ...HOOKS,
    ],
  },
  { name: "an httpError's page", url: '/taken', ways: ["httpError's headers", 'pre plugin', ...HOOKS] },
  { name: 'a 500 page', url: '/boom', ways: ['pre plugin', ...HOOKS] },
  { name: 'a 404 page (JSON)', url: '/nowhere', ways: HOOKS },
  { name: 'a 404 page (HTML)', url: '/nowhere', accept: 'text/html', ways: HOOKS },
  { name: 'a 405 page', url: '/reply', method: 'DELETE', ways: HOOKS },
]

/** Replies the framework makes whole, with the defaults they carry. */
const FRAMEWORK_REPLIES: readonly { ending: Ending; defaults: Readonly<Record<string, string>> }[] = [
  {
    ending: { name: 'a health endpoint', url: '/livez', ways: HOOKS },
    defaults: { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' },
  },
  {
    ending: { name: 'a static file', url: '/assets/a.txt', ways: ['pre plugin', ...HOOKS] },
    defaults: { 'cache-control': 'public, max-age=60', 'content-type': 'text/plain; charset=utf-8' },
  },
]

async function send(t: ModeContext, ending: Ending, by?: string, name?: string) {
  const headers: Record<string, string> = { 'x-forwarded-proto': 'https' }
  if (ending.accept) headers.accept = ending.accept
  if (by && name) Object.assign(headers, { 'x-test-by': by, 'x-test-name': name })
  const res = await t.request({ url: ending.url, method: ending.method ?? 'GET', headers })
  await res.arrayBuffer()
  return res
}

describeModes('framework defaults fill only what the app left', config, (t) => {
  for (const [name, fallback] of DEFAULTS) {
    it(`${name}: sent by default, and the app's own value however it set it`, async () => {
      t.expectLogged(/500 on GET \/boom/)
      const wrong: string[] = []
      for (const ending of ENDINGS) {
        const plain = (await send(t, ending)).headers.get(name)
        if (!fallback.test(plain ?? '')) wrong.push(`${ending.name}, by default: ${plain}`)
        for (const by of ending.ways) {
          const got = (await send(t, ending, by, name)).headers.get(name)
          if (got !== appValue(name)) wrong.push(`${ending.name}, set by ${by}: ${got}`)
        }
      }
      expect(wrong).toEqual([])
    })
  }

  it("the framework's cache-control and content type of health endpoints and static files", async () => {
    const wrong: string[] = []
    for (const { ending, defaults } of FRAMEWORK_REPLIES) {
      for (const [name, fallback] of Object.entries(defaults)) {
        const plain = (await send(t, ending)).headers.get(name)
        if (plain !== fallback) wrong.push(`${ending.name}, by default: ${name}: ${plain}`)
        for (const by of ending.ways) {
          const got = (await send(t, ending, by, name)).headers.get(name)
          if (got !== appValue(name)) wrong.push(`${ending.name}, set by ${by}: ${name}: ${got}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })
})

// The case the issue was found with: a post plugin keeping a sane id the client sent, in its own
// uuid format, where the framework (the client being no trusted proxy) makes its own.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const keepClientId = definePlugin({
  name: 'keep-client-id',
  info,
  postRequest(req) {
    const sent = req.header('x-request-id')
    if (sent && UUID.test(sent)) req.setHeader('x-request-id', sent)
    req.setHeader('x-frame-options', 'SAMEORIGIN')
    return ok()
  },
})

describeModes(
  "an app's own x-request-id",
  {
    bootstrapApplication: 'own-ids',
    onResponse: [
      // Unrouted requests never reach plugins: the same, for every reply, as a hook.
      function keepOnPages(res: OutgoingResponse) {
        if (res.route !== undefined) return
        const sent = res.request.header('x-request-id')
        if (sent && UUID.test(sent)) res.setHeader('X-Request-Id', sent)
        res.setHeader('content-security-policy', "default-src 'none'")
      },
      securityHeaders(),
    ],
    routes: {
      r: {
        prefix: '',
        security: false,
        plugins: [keepClientId()],
        routes: [['GET /thing', (req) => json({ id: req.id })]],
      },
    },
  },
  (t) => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'

    it('a post plugin sets it and a security header: the client gets both', async () => {
      const res = await t.request({ url: '/thing', headers: { 'x-request-id': uuid } })
      expect(res.headers.get('x-request-id')).toBe(uuid)
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      // The request's own id (its log lines') is still the framework's.
      expect(((await res.json()) as { id: string }).id).toMatch(GENERATED)
      const other = await t.request({ url: '/thing', headers: { 'x-request-id': 'not a uuid' } })
      expect(other.headers.get('x-request-id')).toMatch(GENERATED)
    })

    it('an onResponse hook sets it and the CSP on a 404 page', async () => {
      const res = await t.request({ url: '/nowhere', headers: { 'x-request-id': uuid } })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-request-id')).toBe(uuid)
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'")
      expect(res.headers.get('x-frame-options')).toBe('DENY')
    })
  },
)

it("an accepted WebSocket upgrade keeps the id and headers the route's plugin set, with its cookies", async () => {
  const plugin = definePlugin({
    name: 'upgrade-headers',
    info,
    preRequest(req) {
      setResponseHeader(req.event, 'x-request-id', 'app-id')
      // One cookie through the request, one through h3 on the event: both reach the 101.
      req.setCookie('a', '1')
      setCookie(req.event, 'b', '2')
      req.setHeader('x-frame-options', 'SAMEORIGIN')
      return ok()
    },
  })
  const app = createApp(
    {
      bootstrapApplication: 'upgrades',
      onResponse: [securityHeaders()],
      routes: {
        r: {
          prefix: '',
          security: false,
          plugins: [plugin()],
          routes: [['/ws', defineWebSocket({}), { protocol: 'ws' }]],
        },
      },
    },
    { env: {} },
  )
  const decision = await app.upgrade(
    new Request('http://localhost/ws', {
      headers: {
        upgrade: 'websocket',
        connection: 'upgrade',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-version': '13',
      },
    }),
  )
  expect(decision.accept).toBe(true)
  if (!decision.accept) return
  expect(decision.headers.get('x-request-id')).toBe('app-id')
  expect(decision.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  expect(decision.headers.get('x-content-type-options')).toBe('nosniff')
  expect(decision.headers.getSetCookie()).toEqual([expect.stringMatching(/^a=1/), expect.stringMatching(/^b=2/)])
})
