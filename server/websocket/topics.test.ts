// WebSocket topics in one process (peer.subscribe / unsubscribe, peer.publish, req.publish,
// app.publish), over real listeners and real `ws` clients; then the hub with a broker (crossws's
// in-process BroadcastChannel adapter, and brokers that fail). Every exactly-once check ends with a
// sentinel every client gets, so a duplicate or a stray message shows without a sleep.
import { randomUUID } from 'node:crypto'
import type { SyncDriver, SyncMessage } from 'crossws'
import { broadcastChannel } from 'crossws/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '../testing/index.ts'
import { startTestServer } from '../testing/index.ts'
import { strictLog } from '../../test/support/logs.ts'
import { topicsApp } from '../../test/support/topics-app.ts'
import { WsClient } from '../../test/support/ws-client.ts'
import type { BrokerContext } from './topics.ts'
import { createTopics } from './topics.ts'

const logs = strictLog()

describe('topics on one listener', () => {
  const app = topicsApp({ log: logs.log })
  let server: TestServer
  let ws: (path: string) => Promise<WsClient>
  const clients: WsClient[] = []
  beforeAll(async () => {
    server = await startTestServer(app)
    ws = async (path) => {
      const c = await WsClient.open(`${server.url.replace('http', 'ws')}${path}`)
      clients.push(c)
      return c
    }
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await server.close({ timeoutMs: 1000 })
    await app.stop()
  })

  it('app.publish reaches every subscriber once, across routes (a topic is app-wide), and no one else', async () => {
    const [a, b, c, other] = await Promise.all([
      ws('/ws/one?sub=news,end1'),
      ws('/ws/two?sub=news,end1'),
      ws('/ws/three?sub=news,end1'),
      ws('/ws/one?sub=end1'),
    ])
    app.publish('news', 'hello')
    app.publish('end1', 'end')
    expect(await Promise.all([a, b, c].map((x) => x.until('end')))).toEqual([['hello'], ['hello'], ['hello']])
    expect(await other.until('end')).toEqual([])
  })

  it('text goes out as a text frame, bytes (Uint8Array or ArrayBuffer) as a binary frame', async () => {
    const client = await ws('/ws/bin?sub=bin')
    app.publish('bin', 'text')
    app.publish('bin', new Uint8Array([1, 2, 255]))
    app.publish('bin', new Uint8Array([7, 8]).buffer)
    // Not a TopicMessage, but what a JavaScript caller may pass: JSON, like crossws's own publish.
    app.publish('bin', { json: true } as never)
    const got = [await client.next(), await client.next(), await client.next(), await client.next()]
    expect(got.map((m) => [m.binary, m.binary ? [...m.bytes] : m.text])).toEqual([
      [false, 'text'],
      [true, [1, 2, 255]],
      [true, [7, 8]],
      [false, '{"json":true}'],
    ])
  })

  it('peer.publish reaches the other subscribers, not the sender; req.publish in a hook reaches the sender too', async () => {
    const [sender, b, c] = await Promise.all([
      ws('/ws/p?sub=chat,end2'),
      ws('/ws/q?sub=chat,end2'),
      ws('/ws/r?sub=chat,end2'),
    ])
    sender.send({ pub: 'chat', text: 'from sender' })
    expect((await b.next()).text).toBe('from sender')
    sender.send({ pubAll: 'chat', text: 'to all' })
    expect((await b.next()).text).toBe('to all')
    app.publish('end2', 'end')
    expect(await sender.until('end')).toEqual(['to all'])
    expect(await b.until('end')).toEqual([])
    expect(await c.until('end')).toEqual(['from sender', 'to all'])
  })

  it('req.publish in an HTTP handler reaches the subscribers (text and binary)', async () => {
    const client = await ws('/ws/h?sub=posted')
    const res = await server.request({ method: 'POST', url: '/publish/posted', body: 'from http' })
    expect(await res.json()).toEqual({ published: 'posted' })
    expect((await client.next()).text).toBe('from http')
    await server.request({ method: 'POST', url: '/publish/posted?binary=1', body: 'AB' })
    const bin = await client.next()
    expect([bin.binary, [...bin.bytes]]).toEqual([true, [65, 66]])
  })

  it('unsubscribe stops delivery; subscribe later starts it (no replay of what came before)', async () => {
    const client = await ws('/ws/u?sub=u,end3')
    client.send({ unsub: 'u' })
    expect((await client.next()).text).toBe('unsubscribed u')
    app.publish('u', 'missed')
    client.send({ sub: 'u' })
    expect((await client.next()).text).toBe('subscribed u')
    app.publish('u', 'after')
    app.publish('end3', 'end')
    expect(await client.until('end')).toEqual(['after'])
  })

  it('a closed peer is dropped: publishing to its topic reaches the others and logs nothing', async () => {
    const [leaving, staying] = await Promise.all([ws('/ws/c?sub=gone'), ws('/ws/d?sub=gone')])
    staying.send({ count: 'gone' })
    expect((await staying.next()).text).toBe('2')
    await leaving.close()
    // The server sees the close after the client does: ask until it counts one.
    let count = ''
    for (let i = 0; i < 50 && count !== '1'; i++) {
      staying.send({ count: 'gone' })
      count = (await staying.next()).text
    }
    expect(count).toBe('1')
    app.publish('gone', 'still here')
    expect((await staying.next()).text).toBe('still here')
  })

  it('publishing with no subscriber, or an app that never listened, is a no-op that does not throw', () => {
    const idle = topicsApp({ log: logs.log })
    expect(() => idle.publish('nobody', 'x')).not.toThrow()
    expect(() => app.publish('nobody', 'x')).not.toThrow()
  })
})

describe('topics across the listeners of one app', () => {
  it('app.publish and peer.publish reach the subscribers of both listeners once; a closed listener leaves', async () => {
    const app = topicsApp({ log: logs.log })
    const [one, two] = await Promise.all([startTestServer(app), startTestServer(app)])
    const url = (s: TestServer, path: string) => `${s.url.replace('http', 'ws')}${path}`
    const [a, b, c] = await Promise.all([
      WsClient.open(url(one, '/ws/a?sub=t,end')),
      WsClient.open(url(two, '/ws/b?sub=t,end')),
      WsClient.open(url(two, '/ws/c?sub=t,end')),
    ])
    app.publish('t', 'app')
    a.send({ pub: 't', text: 'from a' })
    expect((await b.next()).text).toBe('app')
    expect((await b.next()).text).toBe('from a')
    app.publish('end', 'end')
    expect(await a.until('end')).toEqual(['app'])
    expect(await b.until('end')).toEqual([])
    expect(await c.until('end')).toEqual(['app', 'from a'])
    await Promise.all([b.close(), c.close()])
    await two.close({ timeoutMs: 1000 })
    app.publish('t', 'one left')
    expect((await a.next()).text).toBe('one left')
    await a.close()
    await one.close({ timeoutMs: 1000 })
    await app.stop()
  })
})

describe('topics with a broker', () => {
  it("crossws's sync adapters plug in: two instances on a BroadcastChannel deliver once each, echo ignored", async () => {
    const pubsub = broadcastChannel({ channel: `vela-test-${randomUUID()}` })
    const apps = [topicsApp({ log: logs.log, pubsub }), topicsApp({ log: logs.log, pubsub })]
    const servers = await Promise.all(apps.map((a) => startTestServer(a)))
    const [a, b] = await Promise.all(servers.map((s) => WsClient.open(`${s.url.replace('http', 'ws')}/ws/x?sub=t,end`)))
    await Promise.all(apps.map((x) => x.topics.ready()))
    apps[0]!.publish('t', 'from 0')
    b!.send({ pub: 't', text: 'from b' })
    expect((await a!.next()).text).toBe('from 0')
    expect((await a!.next()).text).toBe('from b')
    // BroadcastChannel keeps order per sender: instance 0's sentinel comes after its message.
    apps[0]!.publish('end', 'end')
    expect(await b!.until('end')).toEqual(['from 0'])
    apps[1]!.publish('end', 'end')
    expect(await a!.until('end')).toEqual([])
    await Promise.all([a!.close(), b!.close()])
    await Promise.all(servers.map((s) => s.close({ timeoutMs: 1000 })))
    await Promise.all(apps.map((x) => x.stop()))
  })

  /** A broker whose calls the test scripts: publish outcomes, subscribe failure, what it saw. */
  function scriptedBroker(script: { publish?: () => unknown; subscribe?: () => unknown }) {
    const seen = {
      published: [] as SyncMessage[],
      ctx: undefined as BrokerContext | undefined,
      closed: 0,
      deliver: undefined as ((m: SyncMessage) => void) | undefined,
    }
    const broker = (ctx: BrokerContext): SyncDriver => {
      seen.ctx = ctx
      return {
        subscribe: (deliver) => {
          seen.deliver = deliver
          return script.subscribe?.() as void
        },
        publish: (m) => {
          seen.published.push(m)
          return script.publish?.() as void
        },
        close: () => void seen.closed++,
      }
    }
    return { broker, seen }
  }

  it('starts on first use with the instance id and app name; delivers what comes in; closes once; nothing after close', async () => {
    const { broker, seen } = scriptedBroker({})
    const topics = createTopics({ broker, app: 'demo', log: logs.log })
    expect(seen.ctx).toBeUndefined()
    const got: SyncMessage[] = []
    const driver = topics.relay({ id: 'adapter' })
    driver.subscribe((m) => got.push(m))
    expect(seen.ctx).toMatchObject({ id: topics.instanceId, app: 'demo' })
    await topics.ready()
    seen.deliver!({ namespace: '', topic: 't', data: 'remote' })
    topics.publish('t', 'local')
    expect(got.map((m) => m.data)).toEqual(['remote', 'local'])
    expect(seen.published).toEqual([{ namespace: '', topic: 't', data: 'local' }])
    await topics.close()
    await topics.close()
    topics.publish('t', 'late')
    expect([seen.closed, seen.published.length, got.length]).toEqual([1, 1, 2])
  })

  it('a broker failing to publish is logged once per streak (rejecting or throwing); local delivery goes on', async () => {
    let outcome: 'reject' | 'throw' | 'ok' = 'reject'
    const { broker } = scriptedBroker({
      publish: () => {
        if (outcome === 'throw') throw new Error('broker down')
        return outcome === 'reject' ? Promise.reject(new Error('broker down')) : Promise.resolve()
      },
    })
    const topics = createTopics({ broker, log: logs.log })
    const got: unknown[] = []
    topics.relay({ id: 'a' }).subscribe((m) => got.push(m.data))
    logs.expectLogged(
      /^WebSocket topics: the broker failed to publish; messages reach this instance only until it recovers: Error: broker down$/,
    )
    for (let i = 0; i < 3; i++) topics.publish('t', `m${i}`)
    await new Promise((r) => setImmediate(r))
    outcome = 'throw'
    topics.publish('t', 'm3')
    expect(logs.entries).toHaveLength(1)
    outcome = 'ok'
    topics.publish('t', 'm4')
    await new Promise((r) => setImmediate(r))
    outcome = 'throw'
    topics.publish('t', 'm5')
    expect(logs.entries).toHaveLength(2)
    expect(got).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5'])
    await topics.close()
  })

  it('a broker that cannot subscribe (throwing or rejecting) is logged; ready() rejects; publish still delivers locally', async () => {
    logs.expectLogged(
      /^WebSocket topics: the broker could not subscribe; messages stay on this instance: Error: no subscribe$/,
    )
    for (const subscribe of [
      () => Promise.reject(new Error('no subscribe')),
      () => {
        throw new Error('no subscribe')
      },
    ]) {
      const { broker } = scriptedBroker({ subscribe })
      const topics = createTopics({ broker, log: logs.log })
      await expect(topics.ready()).rejects.toThrow('no subscribe')
      const got: unknown[] = []
      topics.relay({ id: 'a' }).subscribe((m) => got.push(m.data))
      topics.publish('t', 'local')
      expect(got).toEqual(['local'])
      await topics.close()
    }
    expect(logs.entries).toHaveLength(2)
  })

  it('a broker whose close fails is logged; without a broker ready() resolves at once', async () => {
    const topics = createTopics({
      broker: () => ({ subscribe() {}, publish() {}, close: () => Promise.reject(new Error('stuck')) }),
      log: logs.log,
    })
    await topics.ready()
    logs.expectLogged(/^WebSocket topics: closing the broker failed: Error: stuck$/)
    await topics.close()
    await createTopics().ready()
  })

  it('start(withinMs): the broker starts at once and it resolves true once subscribed; without a broker at once', async () => {
    let subscribed!: () => void
    const { broker, seen } = scriptedBroker({ subscribe: () => new Promise<void>((resolve) => (subscribed = resolve)) })
    const topics = createTopics({ broker, log: logs.log })
    let outcome: boolean | undefined
    const starting = topics.start(60_000).then((ok) => (outcome = ok))
    expect(seen.ctx).toBeDefined()
    await new Promise((r) => setImmediate(r))
    expect(outcome).toBeUndefined()
    subscribed()
    await starting
    expect(outcome).toBe(true)
    await topics.close()
    expect(await createTopics().start(60_000)).toBe(true)
  })

  it('start(withinMs) with a broker still away after the bound: false, one line (none if the broker said why), one more once it subscribes; a refusal is false', async () => {
    logs.expectLogged(
      /^WebSocket topics: the broker has not subscribed within 20 ms; starting without it: messages reach this instance only until it does$/,
    )
    logs.expectLogged(/^WebSocket topics: the broker is subscribed; messages reach every instance$/)
    let subscribed!: () => void
    const silent = scriptedBroker({ subscribe: () => new Promise<void>((resolve) => (subscribed = resolve)) })
    const topics = createTopics({ broker: silent.broker, log: logs.log })
    expect(await topics.start(20)).toBe(false)
    expect(logs.entries).toHaveLength(1)
    subscribed()
    await topics.ready()
    await new Promise((r) => setImmediate(r))
    expect(logs.entries).toHaveLength(2)
    await topics.close()

    // A broker that logs its own outage (Redis unreachable): its line is the only one.
    logs.expectLogged(/^Redis away$/)
    const speaking = createTopics({
      broker: (ctx: BrokerContext) => ({
        subscribe: () => (ctx.log!('Redis away'), new Promise<void>(() => {})),
        publish() {},
      }),
      log: logs.log,
    })
    expect(await speaking.start(20)).toBe(false)
    expect(logs.entries).toHaveLength(3)
    await speaking.close()

    logs.expectLogged(
      /^WebSocket topics: the broker could not subscribe; messages stay on this instance: Error: refused$/,
    )
    const refusing = createTopics({
      broker: scriptedBroker({ subscribe: () => Promise.reject(new Error('refused')) }).broker,
      log: logs.log,
    })
    expect(await refusing.start(60_000)).toBe(false)
    expect(logs.entries).toHaveLength(4)
    await refusing.close()
  })

  it('with no broker configured the fallback is asked each time the hub would start, until it gives one (a cluster worker learns its role after the app is made)', async () => {
    const { broker, seen } = scriptedBroker({})
    let role: 'none' | 'worker' = 'none'
    let asked = 0
    const topics = createTopics({ fallback: () => (asked++, role === 'worker' ? broker : undefined), log: logs.log })
    topics.publish('t', 'before')
    expect(await topics.start(60_000)).toBe(true)
    expect([asked, seen.ctx]).toEqual([2, undefined])
    role = 'worker'
    expect(await topics.start(60_000)).toBe(true)
    topics.publish('t', 'after')
    expect([asked, seen.published.map((m) => m.data)]).toEqual([3, ['after']])
    // A configured broker wins: the fallback is never asked.
    const configured = createTopics({ broker, fallback: () => (asked++, undefined), log: logs.log })
    await configured.start(60_000)
    expect(asked).toBe(3)
    await Promise.all([topics.close(), configured.close()])
  })
})
