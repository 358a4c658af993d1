// redisPubSub on its own (the three-instance behaviour is test/cluster/topics.test.ts): its options
// checked when the config is written, the default channel named after the app, nothing opened by a
// broker closed before it connected, an unreachable Redis as one line (the app's log, or
// console.error when crossws uses it directly), and a missing ioredis said plainly.
import { randomUUID } from 'node:crypto'
import net from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { strictLog } from '../../test/support/logs.ts'
import { REDIS_URL, serviceAvailable } from '../../test/support/services.ts'
import { redisPubSub } from './redis-pubsub.ts'
import { createTopics } from './topics.ts'

const logs = strictLog()
const available = await serviceAvailable('redis')

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('redisPubSub', () => {
  it('a missing url or an empty channel is a VELA_ERR_CONFIG naming the option', () => {
    expect(() => redisPubSub({} as never)).toThrow(
      expect.objectContaining({
        code: 'VELA_ERR_CONFIG',
        message: 'redisPubSub: `url` (a Redis URL such as redis://127.0.0.1:6379) is required',
      }),
    )
    expect(() => redisPubSub({ url: REDIS_URL, channel: '' })).toThrow(
      'redisPubSub: `channel` must be a non-empty string, got ""',
    )
  })

  it('Redis unreachable: one line on the app log, local delivery unaffected, close ends the retries', async () => {
    const port = await closedPort()
    const topics = createTopics({ broker: redisPubSub({ url: `redis://:secret@127.0.0.1:${port}` }), log: logs.log })
    const got: unknown[] = []
    topics.relay({ id: 'a' }).subscribe((m) => got.push(m.data))
    logs.expectLogged(
      new RegExp(
        `^WebSocket topics: Redis pub/sub at 127\\.0\\.0\\.1:${port} unavailable \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); messages reach this instance only until it is back$`,
      ),
    )
    await vi.waitFor(() => expect(logs.entries).toHaveLength(1), { timeout: 5000 })
    topics.publish('t', 'local')
    expect(got).toEqual(['local'])
    await topics.close()
    expect(logs.entries.map((e) => e.text).join()).not.toContain('secret')
  })

  it('used directly as a crossws sync adapter (no app log): the line goes to console.error; a URL it cannot parse is named generically', async () => {
    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    try {
      const driver = redisPubSub({ url: 'not-a-url-vela-test', redisOptions: { retryStrategy: () => null } })({
        id: 'x',
      })
      void driver.subscribe(() => {})
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5000 })
      expect(errors[0]).toMatch(
        /^\[vela\] WebSocket topics: Redis pub\/sub at the configured Redis unavailable \(.+\); messages reach this instance only until it is back$/,
      )
      driver.publish({ namespace: '', topic: 't', data: 'dropped' })
      await driver.close?.()
    } finally {
      spy.mockRestore()
    }
  })

  it('without ioredis installed: one line saying so; publish and close still work', async () => {
    vi.resetModules()
    vi.doMock('ioredis', () => {
      throw new Error("Cannot find package 'ioredis'")
    })
    try {
      const { redisPubSub: fresh } = await import('./redis-pubsub.ts')
      const topics = createTopics({ broker: fresh({ url: REDIS_URL }), log: logs.log })
      logs.expectLogged(
        /^WebSocket topics: redisPubSub needs the ioredis package \(npm install ioredis; .*\); messages stay on this instance$/,
      )
      await topics.ready()
      topics.publish('t', 'local only')
      await topics.close()
      expect(logs.entries).toHaveLength(1)
    } finally {
      vi.doUnmock('ioredis')
      vi.resetModules()
    }
  })
})

describe.skipIf(!available)('redisPubSub on the real Redis', () => {
  const admin = available ? new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined
  afterAll(() => admin?.disconnect())
  const subscribers = async (channel: string) =>
    Number(((await admin!.pubsub('NUMSUB', channel)) as [string, number])[1])

  it('the default channel is vela:<app>:topics; close unsubscribes', async () => {
    const app = `redis-pubsub-test-${randomUUID()}`
    const topics = createTopics({ broker: redisPubSub({ url: REDIS_URL }), app, log: logs.log })
    await topics.ready()
    expect(await subscribers(`vela:${app}:topics`)).toBe(1)
    await topics.close()
    expect(await subscribers(`vela:${app}:topics`)).toBe(0)
  })

  it('closed before it connected: it opens nothing', async () => {
    const name = `vela-test-${randomUUID()}`
    const topics = createTopics({
      broker: redisPubSub({ url: REDIS_URL, redisOptions: { connectionName: name } }),
      log: logs.log,
    })
    topics.publish('t', 'first use starts the broker')
    await topics.close()
    expect(String(await admin!.client('LIST'))).not.toContain(`name=${name} `)
  })
})
