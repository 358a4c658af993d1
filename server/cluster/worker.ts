/**
 * One worker of a multi-process server (`VELA_WORKERS` > 1; primary.ts forks it): creates the app,
 * runs its start hook (`ctx.cluster.role === 'worker'`), listens on the port node's cluster shares
 * and tells the primary. Its shutdown is the single process's (installShutdown: answer what was
 * sent with `Connection: close`, run the stop hook, exit), in two steps the primary orders:
 * `stop-accepting`, then `drain` (protocol.ts).
 *
 * A signal sent to this worker alone (`kill <pid>`) does the same on its own: it stops accepting,
 * tells the primary, and drains when the primary answers (at once: the other workers keep the port
 * open) or after STOP_WAIT_MS without an answer. A second signal exits at once with 1.
 */
import cluster from 'node:cluster'
import type { Server } from 'node:http'
import type { VelaApp } from '../contracts/app.ts'
import { listen } from '../listener/listen.ts'
import type { Listener } from '../listener/listen.ts'
import type { ShutdownHandle } from '../listener/shutdown.ts'
import { installShutdown } from '../listener/shutdown.ts'
import type { ToPrimary } from './protocol.ts'
import { isMessage } from './protocol.ts'
import { setClusterRole } from './role.ts'
import { appName, startOrExit } from './start.ts'

/** How long a worker stopped by its own signal waits for the primary's go-ahead before draining anyway. */
const STOP_WAIT_MS = 2000

export interface WorkerOptions {
  readonly workers: number
  /** In-flight requests' time in the drain (installShutdown's `timeoutMs`, default 10 s). */
  readonly timeoutMs?: number
}

export async function runWorker(app: VelaApp, opts: WorkerOptions): Promise<void> {
  const id = cluster.worker?.id ?? 0
  setClusterRole({ role: 'worker', id, workers: opts.workers })
  const who = `worker ${id}`
  const send = (message: ToPrimary) => void process.send?.(message, undefined, undefined, () => {})
  let listener: Listener | undefined
  let shutdown: ShutdownHandle | undefined
  let phase: 'starting' | 'serving' | 'stopped accepting' | 'draining' = 'starting'
  // Asked to stop before it served (a signal, or the primary shutting down, while starting).
  let stopWhenStarted = false
  let signalled: NodeJS.Signals | undefined

  const stopAccepting = () => {
    if (phase !== 'serving') return
    phase = 'stopped accepting'
    // Closes only the listening handle: node tells the primary to hand this worker no more
    // connections, while open keep-alive connections go on being served until `drain`. (`close()`
    // of the http server would also close the idle ones at once; primary.ts says why not yet.)
    ;(listener!.server as Server & { _handle?: { close(): void } | null })._handle?.close()
  }
  const drain = () => {
    if (!shutdown) return void (stopWhenStarted = true)
    if (phase === 'draining') return
    phase = 'draining'
    void shutdown.shutdown(signalled ?? 'stopping with the primary')
  }

  process.on('message', (message: unknown) => {
    if (isMessage(message, 'stop-accepting')) {
      if (!shutdown) stopWhenStarted = true
      stopAccepting()
      send({ vela: 'stopped-accepting' })
    } else if (isMessage(message, 'drain')) drain()
  })
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      console.log(`[vela] ${who}: ${signal} again: exiting now`)
      process.exit(1)
    }
    signalled = signal
    if (!shutdown) return void (stopWhenStarted = true)
    stopAccepting()
    send({ vela: 'stopped-accepting', signal })
    setTimeout(drain, STOP_WAIT_MS).unref()
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)

  await startOrExit(app, who)
  if (stopWhenStarted) return stopAndExit(app)
  try {
    listener = await listen(app)
  } catch (err) {
    console.error(`vela: ${appName(app)} ${who} could not listen: ${(err as Error)?.message ?? err}`)
    process.exit(1)
  }
  shutdown = installShutdown(listener, app, {
    signals: [],
    timeoutMs: opts.timeoutMs,
    log: (message, error) => {
      const line = message.replace(/^\[vela\] /, `[vela] ${who}: `)
      if (error === undefined) console.log(line)
      else console.error(line, error)
    },
  })
  phase = 'serving'
  if (stopWhenStarted) return drain()
  send({ vela: 'listening', url: listener.url })
}

async function stopAndExit(app: VelaApp): Promise<void> {
  try {
    await app.stop()
  } finally {
    process.exit(0)
  }
}
