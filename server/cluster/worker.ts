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
import { listen, listeningOn } from '../listener/listen.ts'
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
}

export async function runWorker(app: VelaApp, opts: WorkerOptions): Promise<void> {
  const id = cluster.worker?.id ?? 0
  setClusterRole({ role: 'worker', id, workers: opts.workers })
  const who = `worker ${id}`
  const send = (message: ToPrimary) => void process.send?.(message, undefined, undefined, () => {})
  let listener: Listener | undefined
  let shutdown: ShutdownHandle | undefined
  // Asked to stop before it served (a signal, or the primary shutting down, while starting).
  let stopWhenStarted = false
  let signalled: NodeJS.Signals | undefined
  let stopping: Promise<void> | undefined
  let draining = false

  /** Readiness says draining; after `server.drainDelay`, no new connections; open ones still served. */
  const stopAccepting = (): Promise<void> => {
    if (!shutdown) {
      stopWhenStarted = true
      return Promise.resolve()
    }
    return (stopping ??= (async (server: Server) => {
      app.drain()
      const delay = app.config.server.drainDelay
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      // Closes only the listening handle: node tells the primary to hand this worker no more
      // connections. The http server's `close()` comes with the drain (primary.ts says why later).
      ;(server as Server & { _handle?: { close(): void } | null })._handle?.close()
    })(listener!.server))
  }
  const drain = () => {
    if (!shutdown) return void (stopWhenStarted = true)
    if (draining) return
    draining = true
    void shutdown.shutdown(signalled ?? 'stopping with the primary')
  }

  process.on('message', (message: unknown) => {
    if (isMessage(message, 'stop-accepting')) void stopAccepting().then(() => send({ vela: 'stopped-accepting' }))
    else if (isMessage(message, 'drain')) drain()
  })
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      console.log(`[vela] ${who}: ${signal} again: exiting now`)
      process.exit(1)
    }
    signalled = signal
    void stopAccepting().then(() => {
      if (!shutdown) return
      send({ vela: 'stopped-accepting', signal })
      setTimeout(drain, STOP_WAIT_MS).unref()
    })
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
    // Served already when the worker stopped accepting.
    drainDelayMs: 0,
    log: (message, error) => {
      const line = message.replace(/^\[vela\] /, `[vela] ${who}: `)
      if (error === undefined) console.log(line)
      else console.error(line, error)
    },
  })
  if (stopWhenStarted) return drain()
  send({ vela: 'listening', address: listeningOn(listener) })
}

async function stopAndExit(app: VelaApp): Promise<void> {
  try {
    await app.stop()
  } finally {
    process.exit(0)
  }
}
