// The rate-limit plugin: per key (the client address by default), fixed window, 429 JSON + stop.
import http from 'node:http'
import { describe, expect, it, vi } from 'vitest'
import { forgetDeprecationWarnings } from '../../deprecation.ts'
import { describeModes } from '../../../test/support/modes.ts'
import { createApp } from '../../app/create-app.ts'
import type { PluginEntry } from '../../pipeline/registration.ts'
import { json } from '../../replies.ts'
import { requestPlugin } from '../request.ts'
import { inject } from '../../testing/index.ts'
import { byAddress, byAddressAndField, byField, rateLimitPlugin } from './index.ts'
import type { RateLimitOptions } from './index.ts'
import { MemoryRateLimitStore, MemoryStore } from './memory-store.ts'
import { RedisRateLimitStore, RedisStore } from './redis-store.ts'
import type { RateLimitStore } from './store.ts'
import { strictLog } from '../../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const handlerRuns = new Map<string, number>()
const counted = (name: string) => () => {
  handlerRuns.set(name, (handlerRuns.get(name) ?? 0) + 1)
  return json({ ok: true })
}
const limited = (prefix: string, options: Record<string, unknown>, security: false | (() => boolean) = false) => ({
  prefix,
  security,
  plugins: [rateLimitPlugin(options)] as PluginEntry[],
  routes: [['GET /', counted(prefix)] as const],
})
// The /window store's clock: real time (the plugin's Retry-After reads Date.now()) plus a skew
// the test moves forward to end a window, instead of sleeping through it.
let skew = 0
const skewedStore = () => new MemoryRateLimitStore({ now: () => Date.now() + skew })

/** A GET from a chosen local address (127.0.0.2 is a second client on loopback). */
function getFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { localAddress, agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode!))
      })
      .on('error', reject)
  })
}

describeModes(
  'rate-limit plugin',
  // A function: each mode's app gets its own stores.
  () => ({
    bootstrapApplication: 'rl',
    routes: {
      rl: [
        limited('/three', { maxRequests: 3, windowMs: 60_000 }),
        limited('/peers', { maxRequests: 1 }),
        limited('/window', { maxRequests: 2, windowMs: 300, store: skewedStore() }),
        limited('/defaults', {}),
        limited('/secured', { maxRequests: 1 }, () => {
          handlerRuns.set('security', (handlerRuns.get('security') ?? 0) + 1)
          return true
        }),
        limited('/quiet', { maxRequests: 1, headers: false }),
      ],
    },
  }),
  (t) => {
    it('maxRequests 3: requests 1–3 pass with RateLimit headers, the 4th is a 429 JSON with Retry-After and the handler does not run', async () => {
      handlerRuns.set('/three', 0)
      for (const remaining of ['2', '1', '0']) {
        const res = await t.request('/three')
        expect(res.status).toBe(200)
        expect(res.headers.get('ratelimit-limit')).toBe('3')
        expect(res.headers.get('ratelimit-remaining')).toBe(remaining)
      }
      const res = await t.request('/three')
      expect(res.status).toBe(429)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      const retryAfter = Number(res.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(59)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(res.headers.get('ratelimit-remaining')).toBe('0')
      expect(await res.json()).toEqual({ error: `Too Many Requests - rate limit exceeded, retry in ${retryAfter} s` })
      expect(handlerRuns.get('/three')).toBe(3)
    })

    it('the 429 comes before the security callback', async () => {
      handlerRuns.set('security', 0)
      expect((await t.request('/secured')).status).toBe(200)
      expect((await t.request('/secured')).status).toBe(429)
      expect(handlerRuns.get('security')).toBe(1)
    })

    it('counts each peer IP separately', async () => {
      if (t.mode === 'in-process') {
        expect((await t.request({ url: '/peers', peer: '10.0.0.1' })).status).toBe(200)
        expect((await t.request({ url: '/peers', peer: '10.0.0.1' })).status).toBe(429)
        expect((await t.request({ url: '/peers', peer: '10.0.0.2' })).status).toBe(200)
      } else {
        // Real sockets from two loopback addresses: the plugin sees two peers.
        // (The server's address is read off a response's URL.)
        const base = new URL('/peers', (await t.request('/none')).url).href
        expect(await getFrom(base, '127.0.0.1')).toBe(200)
        expect(await getFrom(base, '127.0.0.1')).toBe(429)
        expect(await getFrom(base, '127.0.0.2')).toBe(200)
        expect(await getFrom(base, '127.0.0.2')).toBe(429)
      }
    })

    it('a new window starts when the old one ends (fixed window)', async () => {
      expect((await t.request('/window')).status).toBe(200)
      expect((await t.request('/window')).status).toBe(200)
      const refused = await t.request('/window')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('1')
      skew += 300
      expect((await t.request('/window')).status).toBe(200)
    })

    it('defaults: 100 requests per 60 s window', async () => {
      for (let i = 0; i < 100; i++) expect((await t.request('/defaults')).status).toBe(200)
      const res = await t.request('/defaults')
      expect(res.status).toBe(429)
      expect(res.headers.get('ratelimit-limit')).toBe('100')
    })

    it('headers: false sends no RateLimit headers (Retry-After still on the 429)', async () => {
      const first = await t.request('/quiet')
      expect(first.headers.get('ratelimit-limit')).toBeNull()
      const second = await t.request('/quiet')
      expect(second.status).toBe(429)
      expect(second.headers.get('ratelimit-limit')).toBeNull()
      expect(second.headers.get('retry-after')).not.toBeNull()
    })
  },
)

describe('rate-limit options and memory store', () => {
  it('invalid options are a start-up error', () => {
    for (const bad of [{ maxRequests: 0 }, { maxRequests: 2.5 }, { windowMs: -1 }, { windowMs: '60000' }]) {
      expect(() => createApp({ bootstrapApplication: 'bad', routes: { r: limited('/x', bad) } }, { env: {} })).toThrow(
        /rate-limit plugin: `(maxRequests|windowMs)` must be a positive integer/,
      )
    }
  })

  it('a memory store keeps fixed windows per key and sweeps ended ones, so it does not grow without bound', async () => {
    let now = 1_000
    const store = new MemoryRateLimitStore({ now: () => now, sweepEveryMs: 1_000 })
    expect(await store.increment('a', 500)).toEqual({ count: 1, resetAt: 1_500 })
    expect(await store.increment('a', 500)).toEqual({ count: 2, resetAt: 1_500 })
    now = 1_500
    expect(await store.increment('a', 500)).toEqual({ count: 1, resetAt: 2_000 })
    for (let i = 0; i < 1000; i++) await store.increment(`peer-${i}`, 500)
    expect(store.size).toBe(1001)
    now = 2_100
    await store.increment('b', 500)
    expect(store.size).toBe(1)
  })

  it('a failing store makes the request a 500 (the plugin never stops limiting silently)', async () => {
    const broken = { increment: () => Promise.reject(new Error('redis down')) }
    const app = createApp(
      { bootstrapApplication: 'broken', routes: { r: limited('/x', { store: broken }) } },
      { env: {}, log: logs.log },
    )
    const { inject } = await import('../../testing/index.ts')
    logs.expectLogged(/^500 on GET \/x .*: Error: redis down$/)
    const res = await inject(app, '/x')
    expect(res.status).toBe(500)
  })

  it('one store passed to two registrations gives them one shared limit', async () => {
    const store = new MemoryRateLimitStore()
    const app = createApp(
      {
        bootstrapApplication: 'shared',
        routes: { r: [limited('/a', { maxRequests: 2, store }), limited('/b', { maxRequests: 2, store })] },
      },
      { env: {} },
    )
    const { inject } = await import('../../testing/index.ts')
    expect((await inject(app, '/a')).status).toBe(200)
    expect((await inject(app, '/b')).status).toBe(200)
    expect((await inject(app, '/a')).status).toBe(429)
  })
})

describe('rate-limit keys: what a limiter counts by', () => {
  const form = (url: string, peer: string, fields: Record<string, string>) => ({
    method: 'POST',
    url,
    peer,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  /** A login-like group: per address first (every attempt counts), then the body, then per account. */
  const loginGroup = (prefix: string, perAddress: RateLimitOptions, perAccount: RateLimitOptions) => ({
    prefix,
    security: false as const,
    plugins: [
      rateLimitPlugin(perAddress),
      requestPlugin({ urlencoded: true }),
      rateLimitPlugin(perAccount),
    ] as PluginEntry[],
    routes: [['POST /', () => json({ ok: true })] as const],
  })

  it('a key function counts by what it returns; undefined leaves the request uncounted and without headers', async () => {
    const app = createApp(
      {
        bootstrapApplication: 'keys',
        routes: {
          r: limited('/k', {
            maxRequests: 2,
            key: (req: { header(n: string): string | undefined }) => req.header('x-api-key'),
          }),
        },
      },
      { env: {} },
    )
    const withKey = (key: string) => inject(app, { url: '/k', headers: { 'x-api-key': key } })
    expect([(await withKey('a')).status, (await withKey('a')).status, (await withKey('a')).status]).toEqual([
      200, 200, 429,
    ])
    expect((await withKey('b')).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const res = await inject(app, '/k')
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBeNull()
    }
  })

  it('byField: guesses at one account from many addresses are stopped by the per-account limit; other accounts are not', async () => {
    const app = createApp(
      {
        bootstrapApplication: 'acct',
        routes: {
          r: loginGroup('/login', { key: byAddress, maxRequests: 100 }, { key: byField('username'), maxRequests: 3 }),
        },
      },
      { env: {} },
    )
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await inject(app, form('/login', `10.0.0.${i + 1}`, { username: 'alice', password: `guess-${i}` }))).status,
      )
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
    expect((await inject(app, form('/login', '10.0.0.1', { username: 'bob', password: 'x' }))).status).toBe(200)
    // A request without the field is not counted by the per-account limiter (the per-address one still counts it).
    for (let i = 0; i < 5; i++)
      expect((await inject(app, form('/login', '10.0.0.9', { password: 'x' }))).status).toBe(200)
  })

  it('byAddressAndField counts one client at one account', async () => {
    const app = createApp(
      {
        bootstrapApplication: 'both',
        routes: { r: loginGroup('/l', { maxRequests: 100 }, { key: byAddressAndField('username'), maxRequests: 1 }) },
      },
      { env: {} },
    )
    expect((await inject(app, form('/l', '10.0.0.1', { username: 'alice' }))).status).toBe(200)
    expect((await inject(app, form('/l', '10.0.0.1', { username: 'alice' }))).status).toBe(429)
    expect((await inject(app, form('/l', '10.0.0.2', { username: 'alice' }))).status).toBe(200)
    expect((await inject(app, form('/l', '10.0.0.1', { username: 'bob' }))).status).toBe(200)
  })

  it('two limiters on one route sharing one store keep separate counters; the headers show the one with fewer requests left', async () => {
    const store = new MemoryRateLimitStore()
    const app = createApp(
      {
        bootstrapApplication: 'two',
        routes: {
          r: loginGroup(
            '/two',
            { key: byAddress, maxRequests: 5, store },
            { key: byField('username'), maxRequests: 2, store },
          ),
        },
      },
      { env: {} },
    )
    // The username equals the address: in one namespace they would be one counter.
    const first = await inject(app, form('/two', '10.0.0.1', { username: '10.0.0.1' }))
    expect(first.status).toBe(200)
    expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual(['2', '1'])
    expect((await inject(app, form('/two', '10.0.0.1', { username: '10.0.0.1' }))).status).toBe(200)
    const refused = await inject(app, form('/two', '10.0.0.1', { username: '10.0.0.1' }))
    expect([
      refused.status,
      refused.headers.get('ratelimit-limit'),
      refused.headers.get('ratelimit-remaining'),
    ]).toEqual([429, '2', '0'])
    // The address has used 3 of its 5; a new account from it passes, with the address's headers (2 left).
    const other = await inject(app, form('/two', '10.0.0.1', { username: 'carol' }))
    expect(other.status).toBe(200)
    expect([other.headers.get('ratelimit-limit'), other.headers.get('ratelimit-remaining')]).toEqual(['5', '1'])
    expect(store.size).toBe(3)
  })

  it('a limiter keyed by a body field listed before the request plugin is a 500 naming the mistake', async () => {
    const app = createApp(
      {
        bootstrapApplication: 'order',
        routes: {
          r: {
            prefix: '/o',
            security: false,
            plugins: [
              rateLimitPlugin({ key: byField('username') }),
              requestPlugin({ urlencoded: true }),
            ] as PluginEntry[],
            routes: [['POST /', () => json({ ok: true })] as const],
          },
        },
      },
      { env: {}, log: logs.log },
    )
    logs.expectLogged(/byField\('username'\) ran before the request body was decoded; list the request plugin/)
    expect((await inject(app, form('/o', '10.0.0.1', { username: 'alice' }))).status).toBe(500)
  })

  it('keys are client input: a long key is stored hashed, and the memory store holds at most maxKeys', async () => {
    const inner = new MemoryRateLimitStore({ maxKeys: 1000 })
    const seen: string[] = []
    const recording: RateLimitStore = { increment: (key, windowMs) => (seen.push(key), inner.increment(key, windowMs)) }
    const app = createApp(
      {
        bootstrapApplication: 'bounded',
        routes: { r: loginGroup('/b', { maxRequests: 100_000 }, { key: byField('username'), store: recording }) },
      },
      { env: {} },
    )
    expect((await inject(app, form('/b', '10.0.0.1', { username: 'u'.repeat(10_000) }))).status).toBe(200)
    expect(
      (await inject(app, form('/b', '10.0.0.1', { username: 'u'.repeat(10_000) }))).headers.get('ratelimit-remaining'),
    ).toBe('98')
    expect(seen[0]).toMatch(/^field:username:#[\w-]{43}$/)
    expect(seen[0]).toBe(seen[1])
    expect((await inject(app, form('/b', '10.0.0.1', { username: 'short' }))).status).toBe(200)
    expect(seen[2]).toBe('field:username:short')
    for (let i = 0; i < 3000; i++) await inject(app, form('/b', '10.0.0.1', { username: `random-${i}` }))
    expect(inner.size).toBe(1000)
  })

  it('a memory store full of open windows drops the one that started longest ago', async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ now: () => now, maxKeys: 3 })
    for (const key of ['a', 'b', 'c']) await store.increment(key, 10_000), (now += 10)
    await store.increment('a', 10_000)
    await store.increment('d', 10_000)
    expect(store.size).toBe(3)
    // 'a' (oldest) is gone: it starts again at 1.
    expect((await store.increment('a', 10_000)).count).toBe(1)
    expect((await store.increment('c', 10_000)).count).toBe(2)
  })

  it('invalid key or name is a start-up error', () => {
    for (const bad of [{ key: 'username' }, { name: '' }]) {
      expect(() => createApp({ bootstrapApplication: 'bad', routes: { r: limited('/x', bad) } }, { env: {} })).toThrow(
        /rate-limit plugin: `(key|name)` must be/,
      )
    }
  })
})

describe('rate-limit stores: the older names', () => {
  it('MemoryStore and RedisStore are the rate-limit stores under their older names, each warned once', async () => {
    forgetDeprecationWarnings()
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      const store = new MemoryStore()
      new MemoryStore()
      expect(store).toBeInstanceOf(MemoryRateLimitStore)
      expect(await store.increment('k', 1000)).toMatchObject({ count: 1 })
      expect(await store.increment('k', 1000)).toMatchObject({ count: 2 })
      const client = { evalsha: async () => [1, 1000] } as never
      expect(new RedisStore({ client })).toBeInstanceOf(RedisRateLimitStore)
      new RedisStore({ client })
      expect(warnings.mock.calls.map(([message, o]) => [(o as { code: string }).code, String(message)])).toEqual([
        ['VELA_DEP_MEMORY_STORE', 'MemoryStore is deprecated: the rate-limit memory store is MemoryRateLimitStore'],
        ['VELA_DEP_REDIS_STORE', 'RedisStore is deprecated: the rate-limit Redis store is RedisRateLimitStore'],
      ])
    } finally {
      warnings.mockRestore()
      forgetDeprecationWarnings()
    }
  })
})
