// WebSocket topics across instances through Redis pub/sub. Three Vela apps, each on its own real
// listener on 127.0.0.1, share the Redis at 127.0.0.1:6379 (VELA_TEST_REDIS_URL) on a channel
// unique to this run: a message published on one instance reaches the subscribers on all three
// exactly once (a sentinel published last shows duplicates and strays without a sleep); stopping
// the apps closes their Redis connections; Redis away (at start, or later) costs only
// cross-instance delivery, is one log line however often ioredis retries, and delivery resumes when
// it is back. A TCP proxy in front of Redis plays the outage. Once `app.start()` resolves (the
// instance reports ready) it is subscribed, so a message published right after the start reaches
// every instance.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { VelaApp } from '../../server/app/create-app.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { redisPubSub } from '../../server/websocket/redis-pubsub.ts'
import { strictLog } from '../support/logs.ts'
import { REDIS_URL, serviceAvailable } from '../support/services.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'
import { topicsApp } from '../support/topics-app.ts'
import { WsClient } from '../support/ws-client.ts'

const logs = strictLog()
const available = await serviceAvailable('redis')

// The apps log through `log`, which also wakes a test waiting for a line (`logged`).
const waiting = new Set<() => void>()
const log = (message: string, error?: unknown) => {
  logs.log(message, error)
  for (const wake of waiting) wake()
}
/** Resolves once `count` log entries match `pattern`. */
function logged(pattern: RegExp, count: number): Promise<void> {
  const enough = () => logs.entries.filter((e) => pattern.test(e.text)).length >= count
  return new Promise((resolve) => {
    const wake = () => {
      if (!enough()) return
      waiting.delete(wake)
      resolve()
    }
    waiting.add(wake)
    wake()
  })
}

/** `promise`, or a rejection naming `what` after `ms`. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
  )
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

interface Instance {
  readonly app: VelaApp
  readonly server: TestServer
  ws(path: string): Promise<WsClient>
  post(topic: string, body: string, binary?: boolean): Promise<void>
}

describe.skipIf(!available)('WebSocket topics across three instances sharing Redis', () => {
  const run = randomUUID()
  const channel = `vela-test:${run}:topics`
  const connectionName = `vela-test-${run}`
  const admin = available ? new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 }) : undefined
  const instances: Instance[] = []
  const clients: WsClient[] = []

  async function instance(url = REDIS_URL, name = connectionName): Promise<Instance> {
    const app = topicsApp({
      log,
      name: 'cluster-topics',
      pubsub: redisPubSub({ url, channel, redisOptions: { connectionName: name } }),
    })
    const server = await startTestServer(app)
    const base = server.url.replace('http', 'ws')
    const it: Instance = {
      app,
      server,
      async ws(path) {
        const client = await WsClient.open(`${base}${path}`)
        clients.push(client)
        return client
      },
      async post(topic, body, binary = false) {
        const res = await server.request({ method: 'POST', url: `/publish/${topic}${binary ? '?binary=1' : ''}`, body })
        expect(res.status).toBe(200)
      },
    }
    instances.push(it)
    return it
  }

  const namedConnections = async (name: string) =>
    (String(await admin!.client('LIST')).match(new RegExp(`name=${name} `, 'g')) ?? []).length
  const subscribers = async () => Number(((await admin!.pubsub('NUMSUB', channel)) as [string, number])[1])

  let one: Instance, two: Instance, three: Instance
  beforeAll(async () => {
    await admin!.connect()
    ;[one, two, three] = await Promise.all([instance(), instance(), instance()])
    await within(
      30_000,
      'the three instances subscribed',
      Promise.all([one, two, three].map((i) => i.app.topics.ready())),
    )
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await Promise.all(instances.map(async (i) => (await i.server.close({ timeoutMs: 1000 }), await i.app.stop())))
    admin?.disconnect()
  })

  it('one subscriber and one publisher connection per instance, on the app channel', async () => {
    expect(await subscribers()).toBe(3)
    expect(await namedConnections(connectionName)).toBe(6)
  })

  it('a message published on instance 1 reaches the subscribers on instances 1, 2 and 3 exactly once each (text and binary)', async () => {
    const subscribed = await Promise.all([
      one.ws('/ws/a?sub=news,end'),
      two.ws('/ws/b?sub=news,end'),
      two.ws('/ws/c?sub=news,end'),
      three.ws('/ws/d?sub=news,end'),
    ])
    const bystander = await three.ws('/ws/e?sub=end')
    await one.post('news', 'hello')
    await one.post('news', 'AB', true)
    await one.post('end', 'end')
    for (const client of subscribed) expect(await client.until('end')).toEqual(['hello', 'binary:65,66'])
    expect(await bystander.until('end')).toEqual([])
  })

  it('peer.publish on instance 2 reaches every other subscriber on every instance once, never the sender', async () => {
    const [sender, neighbour, far, farther] = await Promise.all([
      two.ws('/ws/s?sub=chat,end'),
      two.ws('/ws/n?sub=chat,end'),
      one.ws('/ws/f?sub=chat,end'),
      three.ws('/ws/g?sub=chat,end'),
    ])
    sender.send({ pub: 'chat', text: 'from 2' })
    expect((await neighbour.next()).text).toBe('from 2')
    // Through the same Redis connection as the message, so after it everywhere.
    await two.post('end', 'end')
    expect(await sender.until('end')).toEqual([])
    for (const client of [neighbour, far, farther])
      expect(await client.until('end')).toEqual(client === neighbour ? [] : ['from 2'])
  })

  it("the app's stop closes both of its Redis connections", async () => {
    const name = `${connectionName}-stop`
    const extra = await instance(REDIS_URL, name)
    await within(30_000, 'the extra instance subscribed', extra.app.topics.ready())
    expect([await namedConnections(name), await subscribers()]).toEqual([2, 4])
    await extra.server.close({ timeoutMs: 1000 })
    await extra.app.stop()
    instances.splice(instances.indexOf(extra), 1)
    expect([await namedConnections(name), await subscribers()]).toEqual([0, 3])
  })

  it('Redis away at start, then again later: local delivery goes on, one log line per outage however often ioredis retries; back, delivery across instances resumes', async () => {
    const redis = new URL(REDIS_URL)
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) }, 'down')
    try {
      const cut = await instance(`redis://127.0.0.1:${proxy.port}`, `${connectionName}-cut`)
      const [local, remote] = await Promise.all([cut.ws('/ws/l?sub=news,end'), one.ws('/ws/r?sub=news,end')])
      const where = `Redis pub/sub at 127\\.0\\.0\\.1:${proxy.port}`
      const unavailable = new RegExp(
        `^WebSocket topics: ${where} unavailable \\(.+\\); messages reach this instance only until it is back$`,
      )
      const back = new RegExp(`^WebSocket topics: ${where} is back$`)
      logs.expectLogged(unavailable)
      logs.expectLogged(back)
      const lines = (pattern: RegExp) => logs.entries.filter((e) => pattern.test(e.text)).length

      const isolated = async (outages: number) => {
        await cut.post('news', 'only here')
        await cut.post('end', 'end')
        expect(await local.until('end')).toEqual(['only here'])
        await one.post('news', 'not there')
        await one.post('end', 'end')
        expect(await remote.until('end')).toEqual(['not there'])
        expect(lines(unavailable)).toBe(outages)
      }
      const joined = async () => {
        await cut.post('news', 'from cut')
        await one.post('news', 'from one')
        await cut.post('end', 'end')
        await one.post('end', 'end')
        // Each instance's messages in its order; the sentinels are the last of each.
        const seen = async (c: WsClient) => [...(await c.until('end')), ...(await c.until('end'))].sort()
        expect(await seen(local)).toEqual(['from cut', 'from one'])
        expect(await seen(remote)).toEqual(['from cut', 'from one'])
      }

      // Down at start: both connections have failed at least three times each by now.
      await proxy.refusedAtLeast(6)
      await isolated(1)
      proxy.up()
      await within(60_000, 'back after the first outage', logged(back, 1))
      await within(30_000, 'ready', cut.app.topics.ready())
      await joined()

      // Away again while running: the piped connections are reset.
      const before = proxy.refused
      proxy.down()
      await proxy.refusedAtLeast(before + 6)
      await isolated(2)
      proxy.up()
      await within(60_000, 'back after the second outage', logged(back, 2))
      await joined()
      expect(logs.entries).toHaveLength(4)
    } finally {
      await proxy.close()
    }
  })
})

describe.skipIf(!available)('a broker subscribed before the instance reports ready', () => {
  const channel = `vela-test:${randomUUID()}:topics`
  const admin = available ? new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 }) : undefined
  const apps: VelaApp[] = []
  const servers: TestServer[] = []
  const clients: WsClient[] = []
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await Promise.all(servers.map((s) => s.close({ timeoutMs: 1000 })))
    await Promise.all(apps.map((a) => a.stop()))
    admin?.disconnect()
  })

  it('once app.start() resolves, every instance is subscribed: a message published right after it reaches every instance', async () => {
    await admin!.connect()
    for (let i = 0; i < 3; i++)
      apps.push(topicsApp({ log, name: 'ready-topics', pubsub: redisPubSub({ url: REDIS_URL, channel }) }))
    await within(60_000, 'the three starts', Promise.all(apps.map((a) => a.start())))
    expect(apps.map((a) => a.state)).toEqual(['ready', 'ready', 'ready'])
    // Subscribed already, before any WebSocket or publish used the topics.
    expect(Number(((await admin!.pubsub('NUMSUB', channel)) as [string, number])[1])).toBe(3)

    servers.push(...(await Promise.all(apps.map((a) => startTestServer(a)))))
    const subscribed = await Promise.all(
      servers.map((s) => WsClient.open(`${s.url.replace('http', 'ws')}/ws/r?sub=news`)),
    )
    clients.push(...subscribed)
    apps[0]!.publish('news', 'first')
    for (const client of subscribed) expect(await client.next()).toMatchObject({ text: 'first' })
  })
})
