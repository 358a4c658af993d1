// The topics broker of a cluster worker (topics-broker.ts) over a fake IPC channel
// (test/support/cluster-fakes.ts): join before subscribed, text as is and bytes in base64 both
// ways, its own echo and another app's messages ignored, the bytes in flight bounded with one line
// per streak, and which processes use it. With real processes: test/cluster/workers.test.ts.
import type { SyncMessage } from 'crossws'
import { afterEach, describe, expect, it } from 'vitest'
import { createTopics } from '../websocket/topics.ts'
import { fakeIpcLink } from '../../test/support/cluster-fakes.ts'
import { strictLog } from '../../test/support/logs.ts'
import { setClusterRole } from './role.ts'
import { ipcTopicBroker, workerTopicBroker } from './topics-broker.ts'

const logs = strictLog()
afterEach(() => setClusterRole(undefined))

function driverOf(maxPendingBytes?: number) {
  const ipc = fakeIpcLink()
  const got: SyncMessage[] = []
  const driver = ipcTopicBroker({ link: ipc.link, maxPendingBytes })({ id: 'me', app: 'chat', log: logs.log })
  return { ipc, got, driver }
}

describe('the IPC topics broker of a worker', () => {
  it('asks the primary to join and is subscribed only once it answers; then delivers what other hubs of the app send', async () => {
    const { ipc, got, driver } = driverOf()
    let subscribed = false
    const subscribing = Promise.resolve(driver.subscribe((m) => got.push(m))).then(() => (subscribed = true))
    expect(ipc.sent).toEqual([{ vela: 'topics-join' }])
    await new Promise((r) => setImmediate(r))
    expect(subscribed).toBe(false)
    ipc.says({ vela: 'topics-joined' })
    await subscribing

    ipc.says({ vela: 'topic', app: 'chat', from: 'other', namespace: '', topic: 't', data: 'hello' })
    ipc.says({
      vela: 'topic',
      app: 'chat',
      from: 'other',
      namespace: '',
      topic: 't',
      data: Buffer.from([1, 2, 255]).toString('base64'),
      binary: true,
    })
    // Its own echo, another app's, malformed, and the worker protocol's own messages: ignored.
    ipc.says({ vela: 'topic', app: 'chat', from: 'me', namespace: '', topic: 't', data: 'echo' })
    ipc.says({ vela: 'topic', app: 'shop', from: 'other', namespace: '', topic: 't', data: 'elsewhere' })
    ipc.says({ vela: 'topic', app: 'chat', from: 'other', topic: 't', data: 7 })
    ipc.says({ vela: 'drain' })
    expect(got).toEqual([
      { namespace: '', topic: 't', data: 'hello' },
      { namespace: '', topic: 't', data: new Uint8Array([1, 2, 255]) },
    ])
    driver.close?.()
    expect(ipc.listeners()).toBe(0)
  })

  it('publishes text as is and bytes in base64, tagged with its app and instance id; nothing after close', () => {
    const { ipc, driver } = driverOf()
    driver.publish({ namespace: '', topic: 'news', data: 'hi' })
    driver.publish({ namespace: '', topic: 'news', data: new Uint8Array([65, 66]) })
    driver.close?.()
    driver.publish({ namespace: '', topic: 'news', data: 'late' })
    expect(ipc.sent).toEqual([
      { vela: 'topic', app: 'chat', from: 'me', namespace: '', topic: 'news', data: 'hi' },
      { vela: 'topic', app: 'chat', from: 'me', namespace: '', topic: 'news', data: 'QUI=', binary: true },
    ])
  })

  it('a channel backed up (writes not completed) past the bound drops publishes, one line; caught up, one line, sends again', () => {
    logs.expectLogged(
      /^WebSocket topics: the IPC channel to the cluster primary is backed up \(\d+ bytes unsent\); messages reach this worker only until it catches up$/,
    )
    logs.expectLogged(
      /^WebSocket topics: the IPC channel to the cluster primary caught up; messages reach every worker again$/,
    )
    const { ipc, driver } = driverOf(4096)
    ipc.hold(true)
    const message = { namespace: '', topic: 't', data: 'x'.repeat(1000) }
    for (let i = 0; i < 10; i++) driver.publish(message)
    // About 1.1 KB each on the channel: three fit under 4 KiB, the rest are dropped.
    expect(ipc.sent).toHaveLength(3)
    expect(logs.entries).toHaveLength(1)
    ipc.hold(false)
    ipc.release()
    expect(logs.entries).toHaveLength(2)
    driver.publish(message)
    expect(ipc.sent).toHaveLength(4)
  })

  it('without an IPC channel (not a forked worker) subscribing fails: the hub logs it and delivers locally', async () => {
    logs.expectLogged(
      /^WebSocket topics: the broker could not subscribe; messages stay on this instance: Error: not a cluster worker/,
    )
    const topics = createTopics({ broker: ipcTopicBroker({ link: { on() {}, off() {} } }), log: logs.log })
    expect(await topics.start(60_000)).toBe(false)
    await topics.close()
  })

  it("is the fallback only in a worker forked by Vela's primary (role worker and VELA_CLUSTER_WORKER=1)", () => {
    const ours = { VELA_CLUSTER_WORKER: '1' }
    expect(workerTopicBroker(ours)).toBeUndefined()
    setClusterRole({ role: 'primary', id: 0, workers: 2 })
    expect(workerTopicBroker(ours)).toBeUndefined()
    setClusterRole({ role: 'worker', id: 1, workers: 2 })
    expect(workerTopicBroker({})).toBeUndefined()
    expect(workerTopicBroker(ours)).toBeTypeOf('function')
  })
})
