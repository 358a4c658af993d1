// A worker of VELA_WORKERS (worker.ts) in the test process: a real listener on 127.0.0.1, the IPC
// channel to the primary and the process's signals and exit faked (test/support/cluster-fakes.ts).
// The same with real processes: test/cluster/workers.test.ts.
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../app/create-app.ts'
import type { ClusterRole } from '../contracts/config.ts'
import { json } from '../replies.ts'
import { getFresh } from '../../test/support/built-server.ts'
import { fakeChannel, recordedEffects } from '../../test/support/cluster-fakes.ts'
import { setClusterRole } from './role.ts'
import { runWorker } from './worker.ts'

afterEach(() => {
  setClusterRole(undefined)
  vi.useRealTimers()
})

function workerOf(hooks: { start?: () => void | Promise<void> } = {}) {
  const ipc = fakeChannel()
  const effects = recordedEffects()
  const roles: (ClusterRole | undefined)[] = []
  let stops = 0
  const app = createApp(
    {
      bootstrapApplication: 'worker-test',
      routes: { r: { prefix: '', security: false, routes: [['GET /pid', () => json({ pid: process.pid })]] } },
      async start(ctx) {
        roles.push(ctx.cluster)
        await hooks.start?.()
      },
      stop: () => void stops++,
    },
    { env: {} },
  )
  const run = (listen: { port: number; host: string } = { port: 0, host: '127.0.0.1' }) =>
    runWorker(app, { workers: 2, id: 7, channel: ipc.channel, effects, listen })
  return { ipc, effects, roles, stops: () => stops, run }
}

const portOf = (address: string) => Number(new URL(address).port)

/** GET on one keep-alive connection (the agent's single socket). */
const keepAliveGet = (agent: http.Agent, port: number, path: string) =>
  new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = ''
        res.on('data', (c) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }))
      })
      .on('error', reject)
  })

describe('a worker', () => {
  it('starts as worker N, listens, tells the primary; stop-accepting: readiness draining and no new connection while an open one is served; drain: stop hook, exit 0', async () => {
    const w = workerOf()
    await w.run()
    expect(w.roles).toEqual([{ role: 'worker', id: 7, workers: 2 }])
    const listening = await w.ipc.next('listening')
    expect(listening).toEqual({ vela: 'listening', address: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    const port = portOf((listening as { address: string }).address)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    expect((await keepAliveGet(agent, port, '/pid')).status).toBe(200)

    w.ipc.says({ vela: 'stop-accepting' })
    await w.ipc.next('stopped-accepting')
    expect(await keepAliveGet(agent, port, '/readyz')).toMatchObject({
      status: 503,
      body: '{"status":"draining"}',
      connection: 'keep-alive',
    })
    await expect(getFresh(port, '/pid')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    agent.destroy()

    w.ipc.says({ vela: 'drain' })
    expect(await w.effects.exited()).toBe(0)
    expect(w.stops()).toBe(1)
    expect(w.effects.lines[0]).toMatch(/^\[vela\] worker 7: stopping with the primary: shutting down; /)
    expect(w.effects.lines.at(-1)).toBe('[vela] worker 7: shutdown complete')
  })

  it('a signal to it alone: stops accepting, tells the primary which, drains on its answer; a second signal exits 1 at once', async () => {
    const w = workerOf()
    await w.run()
    await w.ipc.next('listening')
    w.effects.signal('SIGTERM')
    expect(await w.ipc.next('stopped-accepting')).toEqual({ vela: 'stopped-accepting', signal: 'SIGTERM' })
    w.effects.signal('SIGTERM')
    expect(w.effects.exits).toEqual([1])
    expect(w.effects.lines).toEqual(['[vela] worker 7: SIGTERM again: exiting now'])
    w.ipc.says({ vela: 'drain' })
    await vi.waitFor(() => expect(w.effects.exits).toEqual([1, 0]), { timeout: 5000 })
    expect(w.effects.lines[1]).toMatch(/^\[vela\] worker 7: SIGTERM: shutting down; /)
  })

  it('without an answer from the primary, a signalled worker drains after 2 s anyway', async () => {
    const w = workerOf()
    await w.run()
    await w.ipc.next('listening')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    w.effects.signal('SIGINT')
    await w.ipc.next('stopped-accepting')
    await vi.advanceTimersByTimeAsync(1999)
    expect(w.effects.lines).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(await w.effects.exited()).toBe(0)
  })

  it('asked to stop while its start hook runs: never listens, runs the stop hook, exits 0', async () => {
    let release!: () => void
    const w = workerOf({ start: () => new Promise<void>((resolve) => (release = resolve)) })
    const running = w.run()
    await vi.waitFor(() => expect(w.roles).toHaveLength(1))
    w.ipc.says({ vela: 'stop-accepting' })
    expect(await w.ipc.next('stopped-accepting')).toEqual({ vela: 'stopped-accepting' })
    w.ipc.says({ vela: 'drain' })
    release()
    await running
    expect(await w.effects.exited()).toBe(0)
    expect(w.stops()).toBe(1)
    expect(w.ipc.sent.map((m) => m.vela)).toEqual(['stopped-accepting'])
  })

  it('a failing start hook or a port it cannot listen on: one line naming the worker, exit 1', async () => {
    const failing = workerOf({
      start: () => Promise.reject(Object.assign(new Error('database unreachable'), { code: 'VELA_ERR_DB' })),
    })
    await failing.run()
    expect(failing.effects.lines).toEqual(['E vela: worker-test (dev) worker 7 could not start: database unreachable'])
    expect(failing.effects.exits).toEqual([1])

    const taken = net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const w = workerOf()
      await w.run({ port: (taken.address() as net.AddressInfo).port, host: '127.0.0.1' })
      expect(w.effects.lines).toEqual([
        expect.stringMatching(/^E vela: worker-test \(dev\) worker 7 could not listen: listen EADDRINUSE/),
      ])
      expect(w.effects.exits).toEqual([1])
      expect(w.ipc.sent).toEqual([])
    } finally {
      taken.close()
    }
  })
})
