// Issue 3 sessions / DESIGN.md §3 (`req.session`): sealed cookie sessions, HttpOnly, SameSite=Lax,
// Secure under https; secret from options or VELA_SESSION_SECRET, required outside dev/test when the
// app starts (not when it is created); in dev a generated one kept in .data/session-secret.
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { describeModes } from '../../../test/support/modes.ts'
import { createApp } from '../../app/create-app.ts'
import { json, status } from '../../replies.ts'
import type { VelaRequest } from '../../request.ts'
import { inject } from '../../testing/index.ts'
import { sessionPlugins } from './plugin.ts'
import { strictLog } from '../../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const SECRET = 'a-test-secret-that-is-long-enough-0123456789'

const routes = {
  s: {
    prefix: '',
    security: false as const,
    plugins: sessionPlugins({ secret: SECRET }),
    routes: [
      ['/count', (req: VelaRequest) => {
        req.session!.count = ((req.session!.count as number) ?? 0) + 1
        return json({ count: req.session!.count })
      }],
      ['/read', (req: VelaRequest) => json({ session: req.session })],
      ['/login', (req: VelaRequest) => {
        req.session = { ...req.session, user: 'alice', roles: ['admin'] }
        return status(204)
      }],
      ['/forget-roles', (req: VelaRequest) => {
        delete req.session!.roles
        return status(204)
      }],
      ['/logout', (req: VelaRequest) => {
        req.session = {}
        return status(204)
      }],
      ['/fail', (req: VelaRequest) => {
        req.session!.lost = true
        throw new Error('handler failed')
      }],
    ] as const,
  },
}

/** The cookies a response sets, as `name=value` pairs for the next request's Cookie header. */
function cookieHeader(res: Response, previous = ''): string {
  const jar = new Map(previous ? previous.split('; ').map((c) => c.split('=', 2) as [string, string]) : [])
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';', 1)
    const at = pair!.indexOf('=')
    const value = pair!.slice(at + 1)
    if (value === '' || /max-age=0/i.test(line)) jar.delete(pair!.slice(0, at))
    else jar.set(pair!.slice(0, at), value)
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
}

describeModes('session plugin', { bootstrapApplication: 'sessions', routes }, (t) => {
  it('req.session is written to a sealed cookie and read back on the next request', async () => {
    let cookie = ''
    for (const expected of [1, 2, 3]) {
      const res = await t.request({ url: '/count', headers: { cookie } })
      expect(await res.json()).toEqual({ count: expected })
      cookie = cookieHeader(res, cookie)
    }
    expect(cookie).toMatch(/^vela_session=Fe26\.2\*/)
  })

  it('the cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over http', async () => {
    const res = await t.request('/count')
    const [line] = res.headers.getSetCookie()
    expect(line).toMatch(/; HttpOnly/i)
    expect(line).toMatch(/; SameSite=Lax/i)
    expect(line).toMatch(/; Path=\//i)
    expect(line).not.toMatch(/; Secure/i)
  })

  it('the client can neither read nor forge the session: the cookie is encrypted, a tampered one gives an empty session', async () => {
    const login = await t.request('/login')
    const cookie = cookieHeader(login)
    expect(decodeURIComponent(cookie)).not.toContain('alice')
    expect(await (await t.request({ url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice', roles: ['admin'] } })
    const value = cookie.slice('vela_session='.length)
    const flipped = value.slice(0, 60) + (value[60] === 'A' ? 'B' : 'A') + value.slice(61)
    expect(await (await t.request({ url: '/read', headers: { cookie: `vela_session=${flipped}` } })).json()).toEqual({ session: {} })
  })

  it('a request that does not change the session sets no cookie', async () => {
    const cookie = cookieHeader(await t.request('/login'))
    const res = await t.request({ url: '/read', headers: { cookie } })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('a deleted key stays deleted; an emptied session deletes the cookie', async () => {
    let cookie = cookieHeader(await t.request('/login'))
    cookie = cookieHeader(await t.request({ url: '/forget-roles', headers: { cookie } }), cookie)
    expect(await (await t.request({ url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice' } })
    const logout = await t.request({ url: '/logout', headers: { cookie } })
    const [line] = logout.headers.getSetCookie()
    expect(line).toMatch(/^vela_session=;/)
    expect(line).toMatch(/Max-Age=0/i)
    expect(cookieHeader(logout, cookie)).toBe('')
  })

  it('changes made by a handler that fails are not saved', async () => {
    t.expectLogged(/^500 on GET \/fail .*: Error: handler failed$/)
    const res = await t.request('/fail')
    expect(res.status).toBe(500)
    expect(res.headers.getSetCookie()).toEqual([])
  })
})

describe('session plugin: https and secrets', () => {
  const app = (env: Record<string, string>, options = {}, environment?: string) =>
    createApp({ bootstrapApplication: 's', environment, routes: { s: { ...routes.s, plugins: sessionPlugins(options) } } }, { env, log: logs.log })

  it('the cookie is Secure when the request came over https', async () => {
    const res = await inject(app({}, { secret: SECRET }), 'https://example.test/count')
    expect(res.headers.getSetCookie()[0]).toMatch(/; Secure/i)
  })

  it('VELA_SESSION_SECRET is used when the option is absent: two instances with it read each other\'s cookies', async () => {
    const env = { VELA_SESSION_SECRET: SECRET }
    const cookie = cookieHeader(await inject(app(env), '/login'))
    expect(await (await inject(app(env), { url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice', roles: ['admin'] } })
    // …and an instance with another secret does not.
    const other = app({ VELA_SESSION_SECRET: `${SECRET}-other` })
    expect(await (await inject(other, { url: '/read', headers: { cookie } })).json()).toEqual({ session: {} })
  })

  it('outside dev and test a missing secret refuses the start (before the app\'s start hook), not the creation: the app can be inspected', async () => {
    const started = vi.fn()
    const prod = (env: Record<string, string>, environment?: string) =>
      createApp({ bootstrapApplication: 's', environment, start: started, routes: { s: { ...routes.s, plugins: sessionPlugins() } } }, { env, log: logs.log })
    const noSecret = prod({}, 'prod')
    expect(noSecret.routeTable.routes.map((r) => r.path)).toContain('/login')
    const refused = await noSecret.start().catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 'VELA_ERR_CONFIG', message: expect.stringMatching(/^session: no secret in environment "prod"; set VELA_SESSION_SECRET/) })
    await expect(prod({ VELA_ENV: 'staging' }).start()).rejects.toThrow(/no secret in environment "staging"/)
    expect(started).not.toHaveBeenCalled()
    logs.expectLogged(/^500 on GET \/login .*: VelaError: session: no secret in environment "prod"/)
    // Used without start (inject), the first request needing the secret is a 500.
    expect((await inject(noSecret, '/login')).status).toBe(500)
    await prod({ VELA_SESSION_SECRET: SECRET }, 'prod').start()
    expect(started).toHaveBeenCalledTimes(1)
  })

  it('a secret shorter than 32 characters refuses the start in every environment', async () => {
    await expect(app({}, { secret: 'short' }).start()).rejects.toThrow('session: the session plugin option `secret` must be a string of at least 32 characters (got 5 characters)')
    await expect(app({ VELA_SESSION_SECRET: 'x'.repeat(31) }, {}, 'prod').start()).rejects.toThrow(/VELA_SESSION_SECRET must be a string of at least 32 characters \(got 31/)
  })

  it('with maxAge a session ends after that many seconds, also when read again and again', async () => {
    const short = app({}, { secret: SECRET, maxAge: 1 })
    const cookie = cookieHeader(await inject(short, '/login'))
    expect(await (await inject(short, { url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice', roles: ['admin'] } })
    expect(await (await inject(short, { url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice', roles: ['admin'] } })
    await new Promise((r) => setTimeout(r, 1100))
    expect(await (await inject(short, { url: '/read', headers: { cookie } })).json()).toEqual({ session: {} })
  })

  it('in development a missing secret is generated once into <cwd>/.data/session-secret (0600) and read back by later apps, with one warning', async () => {
    const cwd = process.cwd()
    const dir = mkdtempSync(join(tmpdir(), 'vela-dev-secret-'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      process.chdir(dir)
      const first = app({})
      await first.start()
      const cookie = cookieHeader(await inject(first, '/login'))
      // Another app later (a hot swap, a restart of the dev server) reads the same secret back.
      const second = app({})
      await second.start()
      expect(await (await inject(second, { url: '/read', headers: { cookie } })).json()).toEqual({ session: { user: 'alice', roles: ['admin'] } })
      const file = join(dir, '.data/session-secret')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[\w-]{43}$/)
      const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('session'))
      expect(warnings).toEqual([`[vela] session: no secret configured; generated one for dev in ${realpathSync(dir)}/.data/session-secret (kept across restarts; set VELA_SESSION_SECRET to use your own).`])
      // A damaged file is reported, not silently replaced (that would log everyone out).
      writeFileSync(file, 'short\n')
      await expect(app({}).start()).rejects.toThrow(`session: ${realpathSync(dir)}/.data/session-secret holds no valid secret (5 characters, at least 32 needed); delete it to generate a new one`)
    } finally {
      process.chdir(cwd)
      warn.mockRestore()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
