// Sealed cookie sessions: HttpOnly, SameSite=Lax, Max-Age, Secure under https (and by default
// outside dev and test); idle and absolute lifetimes; rotation (renewSession) and revocation on
// logout; the secret from options or VELA_SESSION_SECRET, required outside dev/test when the app
// starts (not when it is created); in dev a generated one kept in .data/session-secret.
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { describeModes } from '../../../test/support/modes.ts'
import { createApp } from '../../app/create-app.ts'
import { json, status } from '../../replies.ts'
import type { VelaRequest } from '../../request.ts'
import { inject } from '../../testing/index.ts'
import { forgetDeprecationWarnings } from '../../deprecation.ts'
import type { PluginEntry } from '../../pipeline/registration.ts'
import { sessionPlugin, sessionPlugins } from './plugin.ts'
import { renewSession } from './renew.ts'
import { MemorySessionStore } from './store.ts'
import { strictLog } from '../../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const SECRET = 'a-test-secret-that-is-long-enough-0123456789'

const routes = {
  s: {
    prefix: '',
    security: false as const,
    plugins: [sessionPlugin({ secret: SECRET })],
    routes: [
      [
        'GET /count',
        (req: VelaRequest) => {
          req.session!.count = ((req.session!.count as number) ?? 0) + 1
          return json({ count: req.session!.count })
        },
      ],
      ['GET /read', (req: VelaRequest) => json({ session: req.session })],
      [
        'GET /login',
        (req: VelaRequest) => {
          req.session = { ...req.session, user: 'alice', roles: ['admin'] }
          return status(204)
        },
      ],
      [
        'GET /forget-roles',
        (req: VelaRequest) => {
          delete req.session!.roles
          return status(204)
        },
      ],
      [
        'GET /logout',
        (req: VelaRequest) => {
          req.session = {}
          return status(204)
        },
      ],
      [
        'GET /renew',
        (req: VelaRequest) => {
          renewSession(req, { user: 'bob' })
          return status(204)
        },
      ],
      [
        'GET /fail',
        (req: VelaRequest) => {
          req.session!.lost = true
          throw new Error('handler failed')
        },
      ],
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
    expect(await (await t.request({ url: '/read', headers: { cookie } })).json()).toEqual({
      session: { user: 'alice', roles: ['admin'] },
    })
    const value = cookie.slice('vela_session='.length)
    const flipped = value.slice(0, 60) + (value[60] === 'A' ? 'B' : 'A') + value.slice(61)
    expect(await (await t.request({ url: '/read', headers: { cookie: `vela_session=${flipped}` } })).json()).toEqual({
      session: {},
    })
  })

  it('a request that does not change the session sets no cookie', async () => {
    const cookie = cookieHeader(await t.request('/login'))
    const res = await t.request({ url: '/read', headers: { cookie } })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('a deleted key stays deleted; an emptied session deletes the cookie', async () => {
    let cookie = cookieHeader(await t.request('/login'))
    cookie = cookieHeader(await t.request({ url: '/forget-roles', headers: { cookie } }), cookie)
    expect(await (await t.request({ url: '/read', headers: { cookie } })).json()).toEqual({
      session: { user: 'alice' },
    })
    const logout = await t.request({ url: '/logout', headers: { cookie } })
    const [line] = logout.headers.getSetCookie()
    expect(line).toMatch(/^vela_session=;/)
    expect(line).toMatch(/Max-Age=0/i)
    expect(cookieHeader(logout, cookie)).toBe('')
  })

  it('the cookie has a Max-Age: the idle lifetime, 7 days by default', async () => {
    const [line] = (await t.request('/login')).headers.getSetCookie()
    expect(line).toMatch(/; Max-Age=604800(;|$)/i)
  })

  it('a cookie copied before the logout is refused after it: an empty session', async () => {
    const cookie = cookieHeader(await t.request('/login'))
    const copy = cookie
    await t.request({ url: '/logout', headers: { cookie } })
    const res = await t.request({ url: '/read', headers: { cookie: copy } })
    expect(await res.json()).toEqual({ session: {} })
    // …and the refused cookie is deleted.
    expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^vela_session=;.*Max-Age=0/i)])
  })

  it('renewSession gives a new cookie with the new data; the cookie from before opens nothing', async () => {
    const before = cookieHeader(await t.request('/login'))
    const renewed = await t.request({ url: '/renew', headers: { cookie: before } })
    const after = cookieHeader(renewed, before)
    expect(after).not.toBe(before)
    expect(await (await t.request({ url: '/read', headers: { cookie: after } })).json()).toEqual({
      session: { user: 'bob' },
    })
    expect(await (await t.request({ url: '/read', headers: { cookie: before } })).json()).toEqual({ session: {} })
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
    createApp(
      { bootstrapApplication: 's', environment, routes: { s: { ...routes.s, plugins: [sessionPlugin(options)] } } },
      { env, log: logs.log },
    )

  it('the cookie is Secure when the request came over https', async () => {
    const res = await inject(app({}, { secret: SECRET }), 'https://example.test/count')
    expect(res.headers.getSetCookie()[0]).toMatch(/; Secure/i)
  })

  it('in prod the cookie is Secure over http too (TLS ends at the proxy); secure: false opts out', async () => {
    const prod = (options = {}) => app({}, { secret: SECRET, ...options }, 'prod')
    expect((await inject(prod(), 'http://example.test/count')).headers.getSetCookie()[0]).toMatch(/; Secure/i)
    expect((await inject(prod({ secure: false }), 'https://example.test/count')).headers.getSetCookie()[0]).not.toMatch(
      /; Secure/i,
    )
    expect(
      (await inject(app({}, { secret: SECRET }, 'dev'), 'http://example.test/count')).headers.getSetCookie()[0],
    ).not.toMatch(/; Secure/i)
  })

  it('a lifetime that is not a positive number of seconds is a config error when the app is created', () => {
    expect(() => app({}, { secret: SECRET, idleTimeout: 0 })).toThrow(
      'session: `idleTimeout` must be a positive number of seconds (got 0)',
    )
    expect(() => app({}, { secret: SECRET, maxAge: -1 })).toThrow(
      'session: `maxAge` must be a positive number of seconds (got -1)',
    )
  })

  it('validate: false makes the session empty (the hook for a per-user "log out everywhere")', async () => {
    const revokedUsers = new Set<string>()
    const checked = app(
      {},
      {
        secret: SECRET,
        validate: ({ data, issuedAt }: { data: Record<string, unknown>; issuedAt: number }) =>
          issuedAt > 0 && !revokedUsers.has(data.user as string),
      },
    )
    const cookie = cookieHeader(await inject(checked, '/login'))
    expect(await (await inject(checked, { url: '/read', headers: { cookie } })).json()).toEqual({
      session: { user: 'alice', roles: ['admin'] },
    })
    revokedUsers.add('alice')
    expect(await (await inject(checked, { url: '/read', headers: { cookie } })).json()).toEqual({ session: {} })
  })

  it('renewSession on a route without the session plugin throws, naming the fix', async () => {
    logs.expectLogged(/^500 on GET \/renew .*renewSession: the session plugin does not run on this route/)
    const bare = createApp(
      { bootstrapApplication: 's', routes: { s: { ...routes.s, plugins: [] } } },
      { env: {}, log: logs.log },
    )
    expect((await inject(bare, '/renew')).status).toBe(500)
  })

  it("VELA_SESSION_SECRET is used when the option is absent: two instances with it read each other's cookies", async () => {
    const env = { VELA_SESSION_SECRET: SECRET }
    const cookie = cookieHeader(await inject(app(env), '/login'))
    expect(await (await inject(app(env), { url: '/read', headers: { cookie } })).json()).toEqual({
      session: { user: 'alice', roles: ['admin'] },
    })
    // …and an instance with another secret does not.
    const other = app({ VELA_SESSION_SECRET: `${SECRET}-other` })
    expect(await (await inject(other, { url: '/read', headers: { cookie } })).json()).toEqual({ session: {} })
  })

  it("outside dev and test a missing secret refuses the start (before the app's start hook), not the creation: the app can be inspected", async () => {
    const started = vi.fn()
    const prod = (env: Record<string, string>, environment?: string) =>
      createApp(
        {
          bootstrapApplication: 's',
          environment,
          start: started,
          routes: { s: { ...routes.s, plugins: [sessionPlugin()] } },
        },
        { env, log: logs.log },
      )
    const noSecret = prod({}, 'prod')
    expect(noSecret.routeTable.routes.map((r) => r.path)).toContain('/login')
    const refused = await noSecret.start().catch((e: unknown) => e)
    expect(refused).toMatchObject({
      code: 'VELA_ERR_CONFIG',
      message: expect.stringMatching(/^session: no secret in environment "prod"; set VELA_SESSION_SECRET/),
    })
    await expect(prod({ VELA_ENV: 'staging' }).start()).rejects.toThrow(/no secret in environment "staging"/)
    expect(started).not.toHaveBeenCalled()
    logs.expectLogged(/^500 on GET \/login .*: VelaError: session: no secret in environment "prod"/)
    // Used without start (inject), the first request needing the secret is a 500.
    expect((await inject(noSecret, '/login')).status).toBe(500)
    await prod({ VELA_SESSION_SECRET: SECRET }, 'prod').start()
    expect(started).toHaveBeenCalledTimes(1)
  })

  it('a secret shorter than 32 characters refuses the start in every environment', async () => {
    await expect(app({}, { secret: 'short' }).start()).rejects.toThrow(
      'session: the session plugin option `secret` must be a string of at least 32 characters (got 5 characters)',
    )
    await expect(app({ VELA_SESSION_SECRET: 'x'.repeat(31) }, {}, 'prod').start()).rejects.toThrow(
      /VELA_SESSION_SECRET must be a string of at least 32 characters \(got 31/,
    )
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
      expect(await (await inject(second, { url: '/read', headers: { cookie } })).json()).toEqual({
        session: { user: 'alice', roles: ['admin'] },
      })
      const file = join(dir, '.data/session-secret')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[\w-]{43}$/)
      const warnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('session'))
      expect(warnings).toEqual([
        `[vela] session: no secret configured; generated one for dev in ${realpathSync(dir)}/.data/session-secret (kept across restarts; set VELA_SESSION_SECRET to use your own).`,
      ])
      // A damaged file is reported, not silently replaced (that would log everyone out).
      writeFileSync(file, 'short\n')
      await expect(app({}).start()).rejects.toThrow(
        `session: ${realpathSync(dir)}/.data/session-secret holds no valid secret (5 characters, at least 32 needed); delete it to generate a new one`,
      )
    } finally {
      process.chdir(cwd)
      warn.mockRestore()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('session plugin: lifetimes, on a clock the test moves', () => {
  const HOUR = 3600_000
  const DAY = 24 * HOUR
  const T0 = Date.UTC(2030, 0, 1)
  afterEach(() => {
    vi.useRealTimers()
  })
  const at = (ms: number) => vi.setSystemTime(T0 + ms)
  const lifetimeApp = (options = {}) => {
    vi.useFakeTimers({ toFake: ['Date'] })
    at(0)
    return createApp(
      {
        bootstrapApplication: 's',
        routes: { s: { ...routes.s, plugins: [sessionPlugin({ secret: SECRET, ...options })] } },
      },
      { env: {}, log: logs.log },
    )
  }
  const read = async (a: ReturnType<typeof lifetimeApp>, cookie: string) => {
    const res = await inject(a, { url: '/read', headers: { cookie } })
    return {
      session: ((await res.json()) as { session: unknown }).session,
      cookie: cookieHeader(res, cookie),
      setCookie: res.headers.getSetCookie(),
    }
  }
  const ALICE = { user: 'alice', roles: ['admin'] }

  it('a session unused for its idle lifetime (7 days) is refused; one in use slides, re-sealed at most once per tenth of the window', async () => {
    const a = lifetimeApp()
    const cookie = cookieHeader(await inject(a, '/login'))
    // Within a tenth of the window (16.8 h): no Set-Cookie.
    at(16 * HOUR)
    expect(await read(a, cookie)).toMatchObject({ session: ALICE, setCookie: [] })
    // Later: re-sealed, with the Max-Age counting from now.
    at(6 * DAY)
    const slid = await read(a, cookie)
    expect(slid.session).toEqual(ALICE)
    expect(slid.setCookie).toEqual([expect.stringMatching(/; Max-Age=604800(;|$)/i)])
    // The new cookie lives 7 days from its last use; the old one from its own.
    at(12 * DAY)
    expect((await read(a, slid.cookie)).session).toEqual(ALICE)
    expect((await read(a, cookie)).session).toEqual({})
    at(12 * DAY + 7 * DAY + 1)
    expect((await read(a, slid.cookie)).session).toEqual({})
  })

  it("a session in constant use still ends at its absolute lifetime (30 days), and the cookie's Max-Age never reaches past it", async () => {
    const a = lifetimeApp()
    let cookie = cookieHeader(await inject(a, '/login'))
    for (let day = 6; day < 30; day += 6) {
      at(day * DAY)
      const r = await read(a, cookie)
      expect(r.session, `day ${day}`).toEqual(ALICE)
      cookie = r.cookie
    }
    at(28 * DAY)
    expect((await read(a, cookie)).setCookie).toEqual([expect.stringMatching(/; Max-Age=172800(;|$)/i)]) // 2 days left
    at(30 * DAY)
    expect((await read(a, cookie)).session).toEqual({})
  })

  it('idleTimeout and absoluteTimeout change the limits; maxAge is the older name of absoluteTimeout', async () => {
    const a = lifetimeApp({ idleTimeout: 60, maxAge: 300 })
    const [line] = (await inject(a, '/login')).headers.getSetCookie()
    expect(line).toMatch(/; Max-Age=60(;|$)/i)
    let cookie = cookieHeader(await inject(a, '/login'))
    at(61_000)
    expect((await read(a, cookie)).session).toEqual({})
    at(0)
    cookie = cookieHeader(await inject(a, '/login'))
    for (const s of [50, 100, 150, 200, 250]) {
      at(s * 1000)
      cookie = (await read(a, cookie)).cookie
    }
    at(300_000)
    expect((await read(a, cookie)).session).toEqual({})
    const b = lifetimeApp({ absoluteTimeout: 120, maxAge: 300 })
    cookie = cookieHeader(await inject(b, '/login'))
    at(120_000)
    expect((await read(b, cookie)).session).toEqual({})
  })

  it('the unseal cache does not let an expired or revoked cookie through: the same cookie read again and again', async () => {
    const a = lifetimeApp({ idleTimeout: 60 })
    const cookie = cookieHeader(await inject(a, '/login'))
    for (let i = 0; i < 3; i++) expect((await read(a, cookie)).session).toEqual(ALICE)
    at(60_000)
    expect((await read(a, cookie)).session).toEqual({})
    at(0)
    const other = cookieHeader(await inject(a, '/login'))
    for (let i = 0; i < 3; i++) expect((await read(a, other)).session).toEqual(ALICE)
    await inject(a, { url: '/logout', headers: { cookie: other } })
    expect((await read(a, other)).session).toEqual({})
  })
})

describe('MemorySessionStore', () => {
  it("keeps a revocation until the session's absolute end, then forgets it", () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(1_000)
      const store = new MemorySessionStore()
      store.revoke('a', 900, 5_000)
      expect(store.isRevoked('a', 900)).toBe(true)
      expect(store.isRevoked('b', 900)).toBe(false)
      vi.setSystemTime(5_000)
      expect(store.isRevoked('a', 900)).toBe(false)
      store.revoke('c', 4_000, 9_000)
      expect(store.size).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('is bounded, and dropping a record never lets its session back in: every session started until then ends', () => {
    const store = new MemorySessionStore({ maxEntries: 3 })
    const far = Date.now() + 3_600_000
    for (const [id, issuedAt] of [
      ['a', 10],
      ['b', 30],
      ['c', 20],
      ['d', 40],
    ] as const)
      store.revoke(id, issuedAt, far)
    expect(store.size).toBe(3)
    expect(['a', 'b', 'c', 'd'].map((id, i) => store.isRevoked(id, [10, 30, 20, 40][i]!))).toEqual([
      true,
      true,
      true,
      true,
    ])
    // A live session started no later than the dropped one's start ends too; a later one does not.
    expect(store.isRevoked('e', 10)).toBe(true)
    expect(store.isRevoked('f', 11)).toBe(false)
  })
})

describe('session plugin: registration forms', () => {
  const counted = async (plugins: readonly PluginEntry[]) => {
    const app = createApp(
      { bootstrapApplication: 's', routes: { s: { ...routes.s, plugins } } },
      { env: {}, log: logs.log },
    )
    const first = await inject(app, '/count')
    const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!
    const second = await inject(app, { url: '/count', headers: { cookie } })
    return [await first.json(), await second.json()]
  }

  it('sessionPlugin(options) listed once reads and saves the session (both phases)', async () => {
    expect(await counted([sessionPlugin({ secret: SECRET })])).toEqual([{ count: 1 }, { count: 2 }])
  })

  it('the older forms keep working: sessionPlugins(options) warns once, the two tuples do not', async () => {
    forgetDeprecationWarnings()
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      const options = { secret: SECRET }
      expect(await counted(sessionPlugins(options))).toEqual([{ count: 1 }, { count: 2 }])
      sessionPlugins(options)
      expect(
        await counted([
          ['pre_request', sessionPlugin, options],
          ['post_request', sessionPlugin, options],
        ]),
      ).toEqual([{ count: 1 }, { count: 2 }])
      expect(warnings.mock.calls.map(([message, o]) => [(o as { code: string }).code, String(message)])).toEqual([
        [
          'VELA_DEP_SESSION_PLUGINS',
          'sessionPlugins(options) is deprecated; list sessionPlugin(options) in plugins: it runs in both phases',
        ],
      ])
    } finally {
      warnings.mockRestore()
      forgetDeprecationWarnings()
    }
  })
})
