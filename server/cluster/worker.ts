/**
 * One worker of a multi-process server (`VELA_WORKERS` > 1; primary.ts forks it): runs the app's
 * start hook (`ctx.cluster.role === 'worker'`), listens on the port node's cluster shares and tells
 * the primary. Its shutdown is the single process's (installShutdown: answer what was sent with
 * `Connection: close`, run the stop hook, exit) in two steps the primary orders (protocol.ts):
 * `stop-accepting` (readiness says draining; after `server.drainDelay` no new connections, the
 * open ones still served), then `drain`.
 *
 * A signal sent to this worker alone (`kill <pid>`) does the same on its own: it stops accepting,
 * tells the primary, and drains when the primary answers (at once: the other workers keep the port
 * open) or after STOP_WAIT_MS without an answer. A second signal exits at once with 1.
 */
import cluster from 'node:cluster'
import type { Server } from 'node:http'
import type { VelaApp } from '../contracts/app.ts'
import { listen, listeningOn } from '../listener/listen.ts'
import type { ListenOptions, Listener } from '../listener/listen.ts'
import type { ShutdownHandle } from '../listener/shutdown.ts'
import { installShutdown } from '../listener/shutdown.ts'
import type { PrimaryChannel, ProcessEffects } from './effects.ts'
import { printable, processChannel, processEffects } from './effects.ts'
import { isMessage } from './protocol.ts'
import { setClusterRole } from './role.ts'
import { appName, startOrExit } from './start.ts'

/** How long a worker stopped by its own signal waits for the primary's go-ahead before draining anyway. */
const STOP_WAIT_MS = 2000

export interface WorkerOptions {
  readonly workers: number
  /** Default: node:cluster's id of this worker. */
  readonly id?: number
  readonly channel?: PrimaryChannel
  readonly effects?: ProcessEffects
  /** Default: the port and host of the config. */
  readonly listen?: ListenOptions
}

export async function runWorker(app: VelaApp, opts: WorkerOptions): Promise<void> {
  const { id = cluster.worker?.id ?? 0, channel = processChannel, effects = processEffects } = opts
  setClusterRole({ role: 'worker', id, workers: opts.workers })
  const who = `worker ${id}`
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
      if (delay > 0)
        await new Promise((resolve) => setTimeout(resolve, delay))
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

  channel.onMessage((message) => {
    if (isMessage(message, 'stop-accepting'))
      void stopAccepting().then(() => channel.send({ vela: 'stopped-accepting' }))
    else if (isMessage(message, 'drain')) drain()
  })
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      effects.print(`[vela] ${who}: ${signal} again: exiting now`)
      return effects.exit(1)
    }
    signalled = signal
    void stopAccepting().then(() => {
      if (!shutdown) return
      channel.send({ vela: 'stopped-accepting', signal })
      setTimeout(drain, STOP_WAIT_MS).unref()
    })
  }
  effects.onSignal('SIGTERM', onSignal)
  effects.onSignal('SIGINT', onSignal)

  if (!(await startOrExit(app, who, effects))) return
  if (stopWhenStarted) return stopAndExit(app, effects)
  try {
    listener = await listen(app, opts.listen)
  } catch (err) {
    effects.print(`vela: ${appName(app)} ${who} could not listen: ${(err as Error)?.message ?? err}`, true)
    return effects.exit(1)
  }
  shutdown = installShutdown(listener, app, {
    signals: [],
    // Served already when the worker stopped accepting.
    drainDelayMs: 0,
    exit: effects.exit,
    log: (message, error) =>
      effects.print(
        message.replace(/^\[vela\] /, `[vela] ${who}: `) + (error === undefined ? '' : ` ${printable(error)}`),
        error !== undefined,
      ),
  })
  if (stopWhenStarted) return drain()
  channel.send({ vela: 'listening', address: listeningOn(listener) })
}

async function stopAndExit(app: VelaApp, effects: ProcessEffects): Promise<void> {
  try {
    await app.stop()
  } finally {
    effects.exit(0)
  }
}
