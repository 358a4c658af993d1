// Revocations shared through Redis: a cookie logged out on one instance is refused by another.
// Runs against the Redis on 127.0.0.1:6379 (VELA_TEST_REDIS_URL); skipped locally without it.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { REDIS_URL, serviceAvailable } from '../../../test/support/services.ts'
import { strictLog } from '../../../test/support/logs.ts'
import { createApp } from '../../app/create-app.ts'
import { json, status } from '../../replies.ts'
import type { VelaRequest } from '../../request.ts'
import { inject } from '../../testing/index.ts'
import { sessionPlugin } from './plugin.ts'
import { RedisSessionStore } from './redis-store.ts'

const logs = strictLog()
const available = await serviceAvailable('redis')
const SECRET = 'a-test-secret-that-is-long-enough-0123456789'

describe.skipIf(!available)('session plugin with RedisSessionStore: two instances share revocations', () => {
  const prefix = `vela-test:${randomUUID()}:`
  const clients: Redis[] = []
  afterAll(async () => {
    const admin = new Redis(REDIS_URL)
    const keys = await admin.keys(`${prefix}*`)
    if (keys.length) await admin.del(...keys)
    await admin.quit()
    await Promise.all(clients.map((c) => c.quit()))
  })

  /** One "instance": its own Redis connection and its own app. */
  function instance() {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
    clients.push(client)
    const store = new RedisSessionStore({ client, prefix })
    const plugins = [sessionPlugin({ secret: SECRET, absoluteTimeout: 3600, store })]
    const routes = [
      ['GET /login', (req: VelaRequest) => ((req.session = { user: 'alice' }), status(204))],
      ['GET /logout', (req: VelaRequest) => ((req.session = {}), status(204))],
      ['GET /read', (req: VelaRequest) => json({ session: req.session })],
    ] as const
    return createApp(
      { bootstrapApplication: 'redis-sessions', routes: { s: { prefix: '', security: false, plugins, routes } } },
      { env: {}, log: logs.log },
    )
  }

  it('logged out on one instance, the cookie is refused on the other; the record expires with the session', async () => {
    const [a, b] = [instance(), instance()]
    const cookie = (await inject(a, '/login')).headers.getSetCookie()[0]!.split(';')[0]!
    expect(await (await inject(b, { url: '/read', headers: { cookie } })).json()).toEqual({
      session: { user: 'alice' },
    })
    await inject(a, { url: '/logout', headers: { cookie } })
    expect(await (await inject(b, { url: '/read', headers: { cookie } })).json()).toEqual({ session: {} })
    const admin = new Redis(REDIS_URL)
    const keys = await admin.keys(`${prefix}*`)
    const ttl = await admin.pttl(keys[0]!)
    await admin.quit()
    expect(keys).toHaveLength(1)
    expect(ttl).toBeGreaterThan(3_500_000)
    expect(ttl).toBeLessThanOrEqual(3_600_000)
  })
})
