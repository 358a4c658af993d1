// installShutdown in-process (its signal handling runs in child processes: shutdown.test.ts and
// test/faults/shutdown.test.ts): the options it gives the listener's close, from the app's config
// unless set, what it logs, and the exit code.
import { expect, it } from 'vitest'
import { resolveConfig } from '../app/config.ts'
import type { CloseOptions } from './listen.ts'
import { installShutdown } from './shutdown.ts'

function run(
  server: Parameters<typeof resolveConfig>[0]['server'],
  opts: Parameters<typeof installShutdown>[2] = {},
  close: () => Promise<void> = async () => {},
) {
  const closes: CloseOptions[] = []
  const logs: string[] = []
  let code: number | undefined
  const app = { stop: async () => {}, config: resolveConfig({ bootstrapApplication: 'x', server }, {}) }
  const handle = installShutdown({ close: (o) => (closes.push(o ?? {}), close()) }, app, {
    signals: [],
    exit: (c) => void (code = c),
    log: (m) => void logs.push(m),
    ...opts,
  })
  return handle.shutdown('test').then(() => ({ closes, logs, code }))
}

it('the drain delay and timeout come from server.drainDelay and server.shutdownTimeout; idle connections are waited for', async () => {
  expect(await run({ drainDelay: 250, shutdownTimeout: 3000 })).toEqual({
    closes: [{ timeoutMs: 3000, drainDelayMs: 250, idle: 'wait' }],
    logs: [
      '[vela] test: shutting down; readiness reports draining, accepting connections for 250 ms more, requests already sent have 3000 ms',
      '[vela] shutdown complete',
    ],
    code: 0,
  })
})

it('options override the config; a close that fails is logged and exits 1', async () => {
  const failing = () => Promise.reject(new Error('boom'))
  const r = await run({ drainDelay: 250 }, { timeoutMs: 100, drainDelayMs: 0, idle: 'close' }, failing)
  expect(r.closes).toEqual([{ timeoutMs: 100, drainDelayMs: 0, idle: 'close' }])
  expect(r.logs).toEqual([
    '[vela] test: shutting down; stopped accepting connections, requests already sent have 100 ms',
    '[vela] closing the listener failed',
    '[vela] shutdown complete',
  ])
  expect(r.code).toBe(1)
})
