// Spec §8 (example rate-limit plugin), DESIGN.md §3: per peer IP, fixed window, 429 JSON + stop.
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { describeModes } from '../../../test/support/modes.ts'
import { createApp } from '../../app/create-app.ts'
import type { PluginEntry } from '../../pipeline/plugin.ts'
import { json } from '../../replies.ts'
import { rateLimitPlugin } from './index.ts'
import { MemoryStore } from './memory-store.ts'
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
  plugins: [['pre_request', rateLimitPlugin, options]] as PluginEntry[],
  routes: [['/', counted(prefix)] as const],
})
// The /window store's clock: real time (the plugin's Retry-After reads Date.now()) plus a skew
// the test moves forward to end a window, instead of sleeping through it.
let skew = 0
const skewedStore = () => new MemoryStore({ now: () => Date.now() + skew })

/** A GET from a chosen local address (127.0.0.2 is a second client on loopback). */
function getFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { localAddress, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    }).on('error', reject)
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
      expect(() => createApp({ bootstrapApplication: 'bad', routes: { r: limited('/x', bad) } }, { env: {} })).toThrow(/rate-limit plugin: `(maxRequests|windowMs)` must be a positive integer/)
    }
  })

  it('a memory store keeps fixed windows per key and sweeps ended ones, so it does not grow without bound', async () => {
    let now = 1_000
    const store = new MemoryStore({ now: () => now, sweepEveryMs: 1_000 })
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
    const app = createApp({ bootstrapApplication: 'broken', routes: { r: limited('/x', { store: broken }) } }, { env: {}, log: logs.log })
    const { inject } = await import('../../testing/index.ts')
    logs.expectLogged(/^500 on GET \/x .*: Error: redis down$/)
    const res = await inject(app, '/x')
    expect(res.status).toBe(500)
  })

  it('one store passed to two registrations gives them one shared limit', async () => {
    const store = new MemoryStore()
    const app = createApp(
      { bootstrapApplication: 'shared', routes: { r: [limited('/a', { maxRequests: 2, store }), limited('/b', { maxRequests: 2, store })] } },
      { env: {} },
    )
    const { inject } = await import('../../testing/index.ts')
    expect((await inject(app, '/a')).status).toBe(200)
    expect((await inject(app, '/b')).status).toBe(200)
    expect((await inject(app, '/a')).status).toBe(429)
  })
})
