// The primary of VELA_WORKERS (primary.ts) in the test process, with node:cluster's workers and the
// process's signals and exit faked (test/support/cluster-fakes.ts): the start hook once before any
// fork, crashed workers replaced, start failures backed off then given up, the two-phase SIGTERM.
// The same with real processes and sockets: test/cluster/workers.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ClusterRole } from '../contracts/config.ts'
import { createApp } from '../app/create-app.ts'
import { VelaError } from '../errors/vela-error.ts'
import type { FakeWorker } from '../../test/support/cluster-fakes.ts'
import { fakeCluster, recordedEffects } from '../../test/support/cluster-fakes.ts'
import { runPrimary } from './primary.ts'
import { clusterRole, setClusterRole } from './role.ts'

afterEach(() => {
  setClusterRole(undefined)
  vi.useRealTimers()
})

function primaryOf(hooks: { start?: () => void | Promise<void>; stop?: () => void | Promise<void> } = {}, workers = 2) {
  const cluster = fakeCluster()
  const effects = recordedEffects()
  const seen: { cluster?: ClusterRole; forkedBefore: number }[] = []
  const stopped: number[] = []
  const app = createApp(
    {
      bootstrapApplication: 'primary-test',
      async start(ctx) {
        seen.push({ cluster: ctx.cluster, forkedBefore: cluster.workers.length })
        await hooks.start?.()
      },
      async stop() {
        stopped.push(Date.now())
        await hooks.stop?.()
      },
    },
    { env: {} },
  )
  const run = () => runPrimary(app, { workers, cluster, effects })
  return { cluster, effects, seen, stopped, run }
}

const lastSent = (w: { sent: unknown[] }) => w.sent.at(-1)

describe('the primary', () => {
  it('runs the start hook once, as the primary, before forking; forks the workers marked as ours; one listening line once all listen', async () => {
    const p = primaryOf()
    await p.run()
    expect(p.seen).toEqual([{ cluster: { role: 'primary', id: 0, workers: 2 }, forkedBefore: 0 }])
    expect(clusterRole()).toEqual({ role: 'primary', id: 0, workers: 2 })
    expect(p.cluster.workers.map((w) => w.env)).toEqual([{ VELA_CLUSTER_WORKER: '1' }, { VELA_CLUSTER_WORKER: '1' }])
    const [w1, w2] = p.cluster.workers
    w1!.says({ vela: 'listening', address: 'http://0.0.0.0:8080 (all interfaces)' })
    expect(p.effects.lines).toEqual([])
    w2!.says({ vela: 'listening', address: 'http://0.0.0.0:8080 (all interfaces)' })
    expect(p.effects.lines).toEqual([
      'vela: primary-test (dev) listening on http://0.0.0.0:8080 (all interfaces) with 2 workers',
    ])
  })

  it('a start hook that fails: its one line, exit 1, no worker forked (a plain error also prints its stack)', async () => {
    const coded = primaryOf({ start: () => Promise.reject(new VelaError('VELA_ERR_CONFIG', 'no secret')) })
    await coded.run()
    expect(coded.effects.lines).toEqual(['E vela: primary-test (dev) could not start: no secret'])
    expect(coded.effects.exits).toEqual([1])
    expect(coded.cluster.workers).toEqual([])

    const plain = primaryOf({ start: () => Promise.reject(new TypeError('boom')) })
    await plain.run()
    expect(plain.effects.lines[0]).toBe('E vela: primary-test (dev) could not start: boom')
    expect(plain.effects.lines[1]).toMatch(/^E TypeError: boom\n\s+at /)
  })

  it('a worker that dies after it listened is replaced at once; the line names its signal or code', async () => {
    const p = primaryOf()
    await p.run()
    const [w1, w2] = p.cluster.workers
    for (const w of [w1!, w2!]) w.says({ vela: 'listening', address: 'http://127.0.0.1:1' })
    w1!.exits(null, 'SIGKILL')
    w2!.exits(0)
    expect(p.effects.lines.slice(1)).toEqual([
      'E [vela] worker 1 (pid 10001) was killed by SIGKILL; starting a new one',
      '[vela] worker 2 (pid 10002) exited with code 0; starting a new one',
    ])
    expect(p.cluster.workers).toHaveLength(4)
    // Listening again after a replacement: no second start line.
    p.cluster.workers[2]!.says({ vela: 'listening', address: 'http://127.0.0.1:1' })
    expect(p.effects.lines).toHaveLength(3)
    // An error of a worker's process (a signal or a write that failed) is a line, not a crash.
    p.cluster.workers[3]!.emit('error', new Error('kill ESRCH'))
    expect(p.effects.lines.at(-1)).toBe('E [vela] worker 4 (pid 10004): kill ESRCH')
  })

  it('workers dying before they listen come back after 100 ms, 200 ms…; more such failures in 10 s than workers: stop, exit 1', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const p = primaryOf()
    await p.run()
    p.cluster.workers[0]!.exits(1)
    p.cluster.workers[1]!.exits(1)
    expect(p.effects.lines).toEqual([
      'E [vela] worker 1 (pid 10001) exited with code 1 before it listened; starting a new one in 100 ms',
      'E [vela] worker 2 (pid 10002) exited with code 1 before it listened; starting a new one in 200 ms',
    ])
    await vi.advanceTimersByTimeAsync(99)
    expect(p.cluster.workers).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(p.cluster.workers).toHaveLength(3)
    p.cluster.workers[2]!.exits(1)
    expect(await p.effects.exited()).toBe(1)
    expect(p.effects.lines.slice(2)).toEqual([
      'E vela: primary-test (dev): worker 3 (pid 10003) exited with code 1 before it listened; workers keep failing to start (3 in 10 s), stopping',
      '[vela] workers failing to start: shutting down 0 workers: they stop accepting connections, then drain',
      '[vela] shutdown complete',
    ])
    expect(p.stopped).toHaveLength(1)
    // The replacement still waiting for its delay is not forked.
    await vi.advanceTimersByTimeAsync(5000)
    expect(p.cluster.workers).toHaveLength(3)
  })

  it('SIGTERM: every worker stops accepting first, all drain once all have, the stop hook runs once they exited, exit 0', async () => {
    const p = primaryOf()
    await p.run()
    const [w1, w2] = p.cluster.workers as [
      NonNullable<(typeof p.cluster.workers)[0]>,
      NonNullable<(typeof p.cluster.workers)[0]>,
    ]
    for (const w of [w1, w2]) w.says({ vela: 'listening', address: 'http://127.0.0.1:1' })
    p.effects.signal('SIGTERM')
    expect(p.effects.lines.at(-1)).toBe(
      '[vela] SIGTERM: shutting down 2 workers: they stop accepting connections, then drain',
    )
    expect([w1.sent, w2.sent]).toEqual([[{ vela: 'stop-accepting' }], [{ vela: 'stop-accepting' }]])
    w1.says({ vela: 'stopped-accepting' })
    await Promise.resolve()
    expect(lastSent(w1)).toEqual({ vela: 'stop-accepting' })
    w2.says({ vela: 'stopped-accepting' })
    await vi.waitFor(() => expect([lastSent(w1), lastSent(w2)]).toEqual([{ vela: 'drain' }, { vela: 'drain' }]), {
      timeout: 1000,
    })
    w1.exits(0)
    expect(p.stopped).toEqual([])
    w2.exits(0)
    expect(await p.effects.exited()).toBe(0)
    expect(p.stopped).toHaveLength(1)
    expect(p.effects.lines.at(-1)).toBe('[vela] shutdown complete')
    // Not replaced while stopping.
    expect(p.cluster.workers).toHaveLength(2)
  })

  it('a second signal while stopping exits at once with 1', async () => {
    const p = primaryOf()
    await p.run()
    p.effects.signal('SIGINT')
    p.effects.signal('SIGINT')
    expect(p.effects.exits).toEqual([1])
    expect(p.effects.lines.at(-1)).toBe('[vela] SIGINT again: exiting now')
  })

  it('a worker stopped by a signal of its own is told to drain at once; one exiting non-zero or a failing stop hook makes the exit 1', async () => {
    const p = primaryOf({ stop: () => Promise.reject(new Error('pool already closed')) })
    await p.run()
    const [w1, w2] = p.cluster.workers
    w1!.says({ vela: 'stopped-accepting', signal: 'SIGTERM' })
    expect(lastSent(w1!)).toEqual({ vela: 'drain' })
    w1!.exits(0)
    p.effects.signal('SIGTERM')
    w2!.says({ vela: 'stopped-accepting' })
    await vi.waitFor(() => expect(lastSent(w2!)).toEqual({ vela: 'drain' }), { timeout: 1000 })
    w2!.exits(1)
    expect(await p.effects.exited()).toBe(1)
    expect(p.effects.lines).toContainEqual(
      expect.stringMatching(/^E \[vela\] the stop hook failed: Error: pool already closed/),
    )
  })

  it('workers that neither stop accepting nor exit in time: drained after 5 s, killed after the drain bound, exit 1', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const p = primaryOf()
    await p.run()
    const [w1, w2] = p.cluster.workers
    w2!.exits(0)
    p.effects.signal('SIGTERM')
    await vi.advanceTimersByTimeAsync(4999)
    expect(lastSent(w1!)).toEqual({ vela: 'stop-accepting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(lastSent(w1!)).toEqual({ vela: 'drain' })
    // server.shutdownTimeout (10 s) + the stop hook's 10 s + 2 s.
    await vi.advanceTimersByTimeAsync(22_000)
    expect(w1!.kills).toEqual(['SIGKILL'])
    expect(p.effects.lines.at(-1)).toBe('E [vela] worker 1 (pid 10001) did not exit in time; killing it')
    w1!.exits(null, 'SIGKILL')
    expect(await p.effects.exited()).toBe(1)
  })
})

describe('the primary relays WebSocket topics between its workers (no broker configured)', () => {
  const envelope = (from: string, data: string) =>
    ({ vela: 'topic', app: 'primary-test', from, namespace: '', topic: 't', data }) as const
  const topicsSent = (w: { sent: unknown[] }) =>
    w.sent.filter((m) => (m as { vela: string }).vela === 'topic').map((m) => (m as { data: string }).data)

  it("a worker that joined is answered and gets every other joined worker's messages, never its own; not one that did not join or is gone; a replacement joins", async () => {
    const p = primaryOf()
    await p.run()
    const [w1, w2] = p.cluster.workers as [FakeWorker, FakeWorker]
    for (const w of [w1, w2]) w.says({ vela: 'topics-join' })
    expect([lastSent(w1), lastSent(w2)]).toEqual([{ vela: 'topics-joined' }, { vela: 'topics-joined' }])
    w1.says(envelope('hub-1', 'from 1'))
    w2.says(envelope('hub-2', 'from 2'))
    expect([topicsSent(w1), topicsSent(w2)]).toEqual([['from 2'], ['from 1']])
    expect(lastSent(w2)).toEqual(envelope('hub-1', 'from 1'))

    w1.says({ vela: 'listening', address: 'http://127.0.0.1:1' })
    w1.exits(null, 'SIGKILL')
    const w3 = p.cluster.workers[2]!
    w2.says(envelope('hub-2', 'before 3 joined'))
    w3.says({ vela: 'topics-join' })
    w2.connected = false
    w3.says(envelope('hub-3', 'from 3'))
    w2.connected = true
    w2.says(envelope('hub-2', 'after 3 joined'))
    expect([topicsSent(w1), topicsSent(w2), topicsSent(w3)]).toEqual([['from 2'], ['from 1'], ['after 3 joined']])
    expect(p.effects.lines).toEqual(['E [vela] worker 1 (pid 10001) was killed by SIGKILL; starting a new one'])
  })

  it('a worker that does not read its channel: what would take its unsent topic bytes over 8 MiB is dropped for it alone, one line; caught up, one line', async () => {
    const p = primaryOf({}, 3)
    await p.run()
    const [w1, w2, w3] = p.cluster.workers as [FakeWorker, FakeWorker, FakeWorker]
    for (const w of [w1, w2, w3]) w.says({ vela: 'topics-join' })
    w2.hold = true
    const big = 'x'.repeat(1024 * 1024)
    for (let i = 0; i < 10; i++) w1.says(envelope('hub-1', big))
    expect([topicsSent(w2).length, topicsSent(w3).length]).toEqual([7, 10])
    expect(p.effects.lines).toEqual([
      expect.stringMatching(
        /^E \[vela\] worker 2 \(pid 10002\): its IPC channel is backed up \(\d+ bytes of topic messages unsent\); topic messages to it are dropped until it catches up$/,
      ),
    ])
    w2.release()
    expect(p.effects.lines[1]).toBe('[vela] worker 2 (pid 10002): caught up; topic messages reach it again')
    w1.says(envelope('hub-1', 'small'))
    expect(topicsSent(w2).at(-1)).toBe('small')
  })
})
