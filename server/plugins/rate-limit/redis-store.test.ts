// A Redis store lets several instances share one limit. Runs against the
// Redis on 127.0.0.1:6379 (VELA_TEST_REDIS_URL); skipped locally without it, a failure under CI.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDIS_URL, serviceAvailable } from '../../../test/support/services.ts'
import { createApp } from '../../app/create-app.ts'
import { json } from '../../replies.ts'
import type { TestServer } from '../../testing/index.ts'
import { startTestServer } from '../../testing/index.ts'
import { requestPlugin } from '../request.ts'
import type { PluginEntry } from '../../pipeline/registration.ts'
import { byAddress, byField, rateLimitPlugin } from './index.ts'
import { RedisRateLimitStore } from './redis-store.ts'
import { strictLog } from '../../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const available = await serviceAvailable('redis')

describe.skipIf(!available)('rate-limit Redis store: two app instances share one limit', () => {
  const prefix = `vela-test:${randomUUID()}:`
  const clients: Redis[] = []
  const servers: TestServer[] = []
  let runs = 0

  /** One "instance": its own Redis connection, its own app, its own server. */
  async function instance(maxRequests: number, windowMs: number, route: string) {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
    await client.connect()
    clients.push(client)
    // One key space per route here, since the key is the peer IP (the same for every test).
    const store = new RedisRateLimitStore({ client, prefix: `${prefix}${route}:` })
    const app = createApp(
      {
        bootstrapApplication: 'rl-redis',
        routes: {
          r: {
            prefix: route,
            security: false,
            plugins: [rateLimitPlugin({ maxRequests, windowMs, store })],
            routes: [['GET /', () => (runs++, json({ ok: true }))]],
          },
        },
      },
      { env: {}, log: logs.log },
    )
    const server = await startTestServer(app)
    servers.push(server)
    return server
  }

  let a: TestServer, b: TestServer
  beforeAll(async () => {
    a = await instance(4, 60_000, '/shared')
    b = await instance(4, 60_000, '/shared')
  })
  afterAll(async () => {
    const admin = new Redis(REDIS_URL)
    const keys = await admin.keys(`${prefix}*`)
    if (keys.length) await admin.del(...keys)
    await admin.quit()
    await Promise.all(servers.map((s) => s.close({ timeoutMs: 1000 })))
    await Promise.all(clients.map((c) => c.quit()))
  })

  it('requests spread over both instances count against one limit; the 5th is a 429 on either', async () => {
    runs = 0
    const statuses = []
    for (const server of [a, b, a, b]) statuses.push((await server.request('/shared')).status)
    expect(statuses).toEqual([200, 200, 200, 200])
    const onA = await a.request('/shared')
    const onB = await b.request('/shared')
    expect([onA.status, onB.status]).toEqual([429, 429])
    expect(await onB.json()).toEqual({
      error: expect.stringMatching(/^Too Many Requests - rate limit exceeded, retry in \d+ s$/),
    })
    expect(Number(onA.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(runs).toBe(4)
  })

  it('the counter key carries the window as its expiry', async () => {
    // An instance and key of its own, removed after, so the test holds whatever runs before or after it.
    const c = await instance(4, 60_000, '/keyed')
    expect((await c.request('/keyed')).status).toBe(200)
    const admin = new Redis(REDIS_URL)
    const keys = await admin.keys(`${prefix}/keyed:*`)
    expect(keys).toEqual([`${prefix}/keyed:address:127.0.0.1`])
    const ttl = await admin.pttl(keys[0]!)
    await admin.del(keys[0]!)
    await admin.quit()
    expect(ttl).toBeGreaterThan(50_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  it('concurrent requests to both instances: exactly maxRequests pass (the increment is atomic)', async () => {
    const c = await instance(10, 60_000, '/burst')
    const d = await instance(10, 60_000, '/burst')
    const all = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? c : d).request('/burst').then((r) => r.status)),
    )
    expect(all.filter((s) => s === 200).length).toBe(10)
    expect(all.filter((s) => s === 429).length).toBe(20)
  })

  it('the shared window ends for every instance at once', async () => {
    const e = await instance(1, 300, '/short')
    const f = await instance(1, 300, '/short')
    expect((await e.request('/short')).status).toBe(200)
    expect((await f.request('/short')).status).toBe(429)
    await new Promise((r) => setTimeout(r, 350))
    expect((await f.request('/short')).status).toBe(200)
    expect((await e.request('/short')).status).toBe(429)
  })

  it('per address and per account on one store: separate counters, keys with the window as expiry, long keys hashed', async () => {
    const client = clients[0]!
    const store = new RedisRateLimitStore({ client, prefix: `${prefix}/keyed:` })
    const app = createApp(
      {
        bootstrapApplication: 'rl-redis-keys',
        routes: {
          r: {
            prefix: '/login',
            security: false,
            plugins: [
              rateLimitPlugin({ key: byAddress, maxRequests: 50, store }),
              requestPlugin({ urlencoded: true }),
              rateLimitPlugin({ key: byField('username'), maxRequests: 2, windowMs: 900_000, store }),
            ] as PluginEntry[],
            routes: [['POST /', () => json({ ok: true })]],
          },
        },
      },
      { env: {}, log: logs.log },
    )
    const server = await startTestServer(app)
    servers.push(server)
    const attempt = (username: string) =>
      server
        .request({
          method: 'POST',
          url: '/login',
          body: `username=${username}&password=x`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
        .then((r) => r.status)
    // The username is the client's own address: one namespace would make them one counter.
    expect([await attempt('127.0.0.1'), await attempt('127.0.0.1'), await attempt('127.0.0.1')]).toEqual([
      200, 200, 429,
    ])
    const long = 'x'.repeat(5000)
    expect([await attempt(long), await attempt(long), await attempt(long)]).toEqual([200, 200, 429])
    const admin = new Redis(REDIS_URL)
    const keys = (await admin.keys(`${prefix}/keyed:*`)).sort()
    expect(keys).toEqual([
      `${prefix}/keyed:address:127.0.0.1`,
      expect.stringMatching(new RegExp(`^${prefix}/keyed:field:username:#[\\w-]{43}$`)),
      `${prefix}/keyed:field:username:127.0.0.1`,
    ])
    expect(await admin.get(`${prefix}/keyed:address:127.0.0.1`)).toBe('6')
    const ttls = await Promise.all(keys.map((k) => admin.pttl(k)))
    await admin.quit()
    expect(ttls[0]).toBeGreaterThan(50_000)
    expect(ttls[0]).toBeLessThanOrEqual(60_000)
    for (const ttl of ttls.slice(1)) {
      expect(ttl).toBeGreaterThan(800_000)
      expect(ttl).toBeLessThanOrEqual(900_000)
    }
  })

  it('a fresh Redis without the cached script still works (NOSCRIPT falls back to EVAL)', async () => {
    const admin = new Redis(REDIS_URL)
    await admin.script('FLUSH')
    await admin.quit()
    const store = new RedisRateLimitStore({ client: clients[0]!, prefix })
    expect((await store.increment('noscript', 1000)).count).toBe(1)
    expect((await store.increment('noscript', 1000)).count).toBe(2)
  })
})
