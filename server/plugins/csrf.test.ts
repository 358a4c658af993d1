// CSRF: token in the session (masked per response), checked on POST/PUT/PATCH/DELETE from the body
// field `_csrf_token` (never the query string) or `x-csrf-token`, 403 `Forbidden - CSRF token
// invalid`, excluded path prefixes.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import type { PluginEntry } from '../pipeline/registration.ts'
import { json } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import { sessionPlugin } from './session/plugin.ts'
import { csrfPlugin } from './csrf.ts'
import { requestPlugin } from './request.ts'

const session = { secret: 'csrf-test-secret-long-enough-for-iron-0123' }
const plugins: PluginEntry[] = [
  requestPlugin({ urlencoded: true, json: true }),
  sessionPlugin(session),
  csrfPlugin({ exclude: ['/api'] }),
]
let handled = 0
const withQs: PluginEntry[] = [requestPlugin({ urlencoded: true, json: true, query: true }), ...plugins.slice(1)]
const handler = (req: VelaRequest) => {
  handled++
  return json({ token: req.csrfToken, method: req.method })
}
const all = ['get', 'post', 'put', 'patch', 'delete'] as const

function sessionCookie(res: Response): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('vela_session='))
  if (!line) throw new Error('no session cookie set')
  return line.split(';', 1)[0]!
}

describeModes(
  'csrf plugin',
  {
    bootstrapApplication: 'csrf',
    routes: {
      c: [
        {
          prefix: '',
          security: false,
          plugins,
          routes: [
            ['/form', handler, { methods: all }],
            ['/apis', handler, { methods: all }],
          ],
        },
        { prefix: '/api', security: false, plugins, routes: [['/things', handler, { methods: all }]] },
        { prefix: '/qs', security: false, plugins: withQs, routes: [['/form', handler, { methods: all }]] },
        {
          prefix: '/nosession',
          security: false,
          plugins: [csrfPlugin()],
          routes: [['GET /', handler]],
        },
      ],
    },
  },
  (t) => {
    /** A fresh visitor: GET the form, keep the session cookie and the token. */
    async function visit() {
      const res = await t.request('/form')
      const { token } = (await res.json()) as { token: string }
      return { cookie: sessionCookie(res), token }
    }
    const forbidden = { error: 'Forbidden - CSRF token invalid' }

    it('a GET gets a token (req.csrfToken) whose secret is kept in the session; each response masks it afresh', async () => {
      const { cookie, token } = await visit()
      expect(token).toMatch(/^[A-Za-z0-9_-]{86}$/)
      const again = await t.request({ url: '/form', headers: { cookie } })
      const second = ((await again.json()) as { token: string }).token
      // Same session secret, different bytes on the page (BREACH): the session is not rewritten.
      expect(second).not.toBe(token)
      expect(again.headers.getSetCookie()).toEqual([])
      for (const given of [token, second]) {
        expect(
          (await t.request({ method: 'POST', url: '/form', headers: { cookie, 'x-csrf-token': given } })).status,
        ).toBe(200)
      }
      const other = await visit()
      expect(other.token).not.toBe(token)
    })

    it('a POST with the token in the form field _csrf_token passes', async () => {
      const { cookie, token } = await visit()
      const res = await t.request({
        method: 'POST',
        url: '/form',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `title=hello&_csrf_token=${encodeURIComponent(token)}`,
      })
      expect(res.status).toBe(200)
    })

    it('POST, PUT, PATCH and DELETE with the token in x-csrf-token pass', async () => {
      const { cookie, token } = await visit()
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await t.request({ method, url: '/form', headers: { cookie, 'x-csrf-token': token } })
        expect([method, res.status]).toEqual([method, 200])
      }
    })

    it('without a token, with a wrong one, one of another session or no session at all: 403 and the handler does not run', async () => {
      const { cookie, token } = await visit()
      const stranger = await visit()
      const wrongSameLength = (token[0] === 'A' ? 'B' : 'A') + token.slice(1)
      const attempts: Array<Record<string, string>> = [
        { cookie },
        { cookie, 'x-csrf-token': wrongSameLength },
        { cookie, 'x-csrf-token': token.slice(0, 20) },
        { cookie, 'x-csrf-token': stranger.token },
        { 'x-csrf-token': token },
      ]
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const headers of attempts) {
          const before = handled
          const res = await t.request({ method, url: '/form', headers })
          expect(res.status).toBe(403)
          expect(await res.json()).toEqual(forbidden)
          expect(handled).toBe(before)
        }
      }
    })

    it('a wrong form field is a 403 too; a browser (Accept: text/html) gets an HTML page', async () => {
      const { cookie } = await visit()
      const res = await t.request({
        method: 'POST',
        url: '/form',
        headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: '_csrf_token=forged',
      })
      expect(res.status).toBe(403)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toContain('Forbidden - CSRF token invalid')
    })

    it('a token in the query string is never accepted, also when the query option merges it into req.params', async () => {
      const { cookie, token } = await visit()
      const q = `?_csrf_token=${encodeURIComponent(token)}`
      const form = { cookie, 'content-type': 'application/x-www-form-urlencoded' }
      const attempts = [
        { url: `/qs/form${q}`, headers: { cookie }, body: { title: 'json' } },
        { url: `/qs/form${q}`, headers: form, body: 'title=form' },
        { url: `/qs/form${q}`, headers: { cookie } },
        { url: `/form${q}`, headers: { cookie }, body: { title: 'json' } },
        // A form body whose field is repeated says two things: neither is taken.
        { url: '/qs/form', headers: form, body: `_csrf_token=${encodeURIComponent(token)}&_csrf_token=x` },
      ]
      for (const attempt of attempts) {
        const before = handled
        const res = await t.request({ method: 'POST', ...attempt })
        expect([attempt.url, res.status]).toEqual([attempt.url, 403])
        expect(handled).toBe(before)
      }
      const inBody = await t.request({
        method: 'POST',
        url: '/qs/form?page=2',
        headers: form,
        body: `_csrf_token=${encodeURIComponent(token)}`,
      })
      expect(inBody.status).toBe(200)
    })

    it('a JSON object body may carry the token as its _csrf_token key', async () => {
      const { cookie, token } = await visit()
      expect(
        (await t.request({ method: 'POST', url: '/qs/form', headers: { cookie }, body: { _csrf_token: token } }))
          .status,
      ).toBe(200)
      expect(
        (
          await t.request({
            method: 'PUT',
            url: '/form',
            headers: { cookie },
            body: { _csrf_token: token, title: 'x' },
          })
        ).status,
      ).toBe(200)
      expect(
        (await t.request({ method: 'POST', url: '/form', headers: { cookie }, body: { _csrf_token: 42 } })).status,
      ).toBe(403)
      expect((await t.request({ method: 'POST', url: '/form', headers: { cookie }, body: [token] })).status).toBe(403)
    })

    it('excluded prefixes are not checked (/api and below), a path merely starting with the same letters is', async () => {
      expect((await t.request({ method: 'POST', url: '/api/things', body: { a: 1 } })).status).toBe(200)
      expect((await t.request({ method: 'DELETE', url: '/api/things' })).status).toBe(200)
      const apis = await t.request({ method: 'POST', url: '/apis', body: { a: 1 } })
      expect(apis.status).toBe(403)
    })

    it('without the session plugin before it, the plugin fails with a 500 (never lets the request through)', async () => {
      t.expectLogged(/^500 on GET \/nosession .*plugin csrf failed: the csrf plugin keeps its token in the session/)
      expect((await t.request('/nosession')).status).toBe(500)
    })
  },
)
