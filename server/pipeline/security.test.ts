// Security callbacks (authentication): what each result does to the request (allow, 401, reply, 500).
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { requestPlugin } from '../plugins/request.ts'
import { json, redirect, status } from '../replies.ts'
import type { RouteGroup, SecurityCallback } from '../contracts/routes.ts'

const whoami = (req: { authData: unknown }) => json({ authData: req.authData })
const group = (prefix: string, security: false | SecurityCallback): RouteGroup => ({
  prefix,
  security,
  routes: [['GET /', whoami]],
})

/** The reference app's callback: username/password from headers (or the decoded form body). */
const usernamePassword: SecurityCallback = (req) => {
  const user = (req.params.username as string | undefined) ?? req.headers.get('x-user')
  const pass = (req.params.password as string | undefined) ?? req.headers.get('x-pass')
  return user === 'alice' && pass === 'secret' ? { authed: true, username: user } : false
}

describeModes(
  'security callbacks',
  {
    bootstrapApplication: 'security',
    routes: {
      security: [
        group('/open', false),
        group('/true', () => true),
        group('/object', usernamePassword),
        group('/async', async (req) => (req.headers.get('x-token') === 't' ? { username: 'bob' } : false)),
        group('/redirect', () => redirect('/login')),
        group('/forbidden', () => status(403, { error: 'Forbidden - admins only' })),
        group('/throws', () => {
          throw new Error('auth service down')
        }),
        group('/nonsense', (() => 'yes') as unknown as SecurityCallback),
        {
          prefix: '/bearer',
          security: {
            scheme: { type: 'http', scheme: 'bearer' },
            check: (req) => (req.headers.get('authorization') === 'Bearer t' ? { username: 'carol' } : false),
          },
          routes: [['GET /', whoami]],
        },
        {
          prefix: '/form',
          security: usernamePassword,
          plugins: [requestPlugin({ urlencoded: true })],
          routes: [['POST /', whoami]],
        },
      ],
    },
  },
  (t) => {
    it('security false: no check; authData is empty', async () => {
      const res = await t.request('/open')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ authData: {} })
    })
    it('true allows', async () => {
      expect((await t.request('/true')).status).toBe(200)
    })
    it('an object allows and reaches the handler as req.authData', async () => {
      const res = await t.request({ url: '/object', headers: { 'x-user': 'alice', 'x-pass': 'secret' } })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ authData: { authed: true, username: 'alice' } })
    })
    it('false is a 401 (JSON by default, HTML for browsers); the handler does not run', async () => {
      const res = await t.request({ url: '/object', headers: { 'x-user': 'alice', 'x-pass': 'wrong' } })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 'Unauthorized' })
      const html = await t.request({ url: '/object', headers: { accept: 'text/html,*/*;q=0.8' } })
      expect(html.status).toBe(401)
      expect(await html.text()).toContain('<h1>401 Unauthorized</h1>')
    })
    it('{ scheme, check }: check decides like a plain callback; the compiled group names the scheme', async () => {
      expect(await (await t.request({ url: '/bearer', headers: { authorization: 'Bearer t' } })).json()).toEqual({
        authData: { username: 'carol' },
      })
      expect((await t.request('/bearer')).status).toBe(401)
      const group = t.app.routeTable.groups.find((g) => g.prefix === '/bearer')
      expect(group?.securityScheme).toEqual({ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } })
    })
    it('async callbacks work', async () => {
      expect(await (await t.request({ url: '/async', headers: { 'x-token': 't' } })).json()).toEqual({
        authData: { username: 'bob' },
      })
      expect((await t.request('/async')).status).toBe(401)
    })
    it('a reply is sent as is: redirect to /login, or a 403 with a body', async () => {
      const r = await t.request('/redirect')
      expect(r.status).toBe(302)
      expect(r.headers.get('location')).toBe('/login')
      const f = await t.request('/forbidden')
      expect(f.status).toBe(403)
      expect(await f.json()).toEqual({ error: 'Forbidden - admins only' })
    })
    it('a throwing callback is a 500, and so is a result of the wrong kind', async () => {
      t.expectLogged(/^500 on GET \/throws .*: Error: auth service down$/)
      t.expectLogged(/^500 on GET \/nonsense .*security callback of group "\/nonsense" returned "yes"/)
      expect((await t.request('/throws')).status).toBe(500)
      expect((await t.request('/nonsense')).status).toBe(500)
    })
    it('security runs after the pre-request plugins: a decoded form body can carry the credentials', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/form',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=alice&password=secret',
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ authData: { authed: true, username: 'alice' } })
    })
  },
)
