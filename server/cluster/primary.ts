/**
 * The primary of a multi-process server (`VELA_WORKERS` > 1), under node:cluster.
 *
 * - **Start.** The primary runs the app's start hook once, before any worker exists, so migrations
 *   (and whatever else the hook does) are done before a worker accepts; a failure is the usual
 *   one-line message and exit 1. Then it forks the workers (worker.ts): each runs the start hook
 *   again (`ctx.cluster.role === 'worker'`; the advisory-locked migrator finds nothing pending) and
 *   listens on the one port node's cluster shares: the primary accepts the connections and hands
 *   them to the workers in turn. The primary serves no requests (its start hook may serve other
 *   things: vela/telemetry serves the workers' summed metrics there). It prints the listening line
 *   once every worker listens.
 * - **Crashes.** A worker that exits while the primary is not stopping is logged with its code or
 *   signal and replaced at once. One that dies before it listened is replaced after a growing delay
 *   (100 ms, doubling, at most 2 s), and more such start failures within 10 s than there are
 *   workers stop the server with exit 1: a worker that cannot start is not forked forever.
 * - **SIGTERM / SIGINT.** (1) Every worker's readiness says draining and, after `server.drainDelay`,
 *   it stops accepting while still serving its open connections; once all have said so, node has
 *   closed the shared listening socket and new connections are refused. (2) Every worker drains (installShutdown: what was sent is answered
 *   with `Connection: close`, then its stop hook, then exit). (3) The primary waits for them
 *   (bounded; late ones are killed), runs its own stop hook and exits 0 (1 if a worker or the hook
 *   failed). A second signal exits at once with 1. Why two phases: a worker draining while the port
 *   still accepts sends its keep-alive clients to reconnect, and their new connections can land in
 *   node's queue for the last worker still closing, which node resets when it closes: requests
 *   written and never answered.
 * - **Topics.** With no `server.websocket.pubsub`, WebSocket topic messages between the workers
 *   go through the primary (topics-relay.ts): a replaced worker joins when its app starts.
 */
import nodeCluster from 'node:cluster'
import type { Cluster, Worker } from 'node:cluster'
import type { VelaApp } from '../contracts/app.ts'
import type { ProcessEffects } from './effects.ts'
import { printable, processEffects } from './effects.ts'
import type { ToWorker } from './protocol.ts'
import { WORKER_ENV, isMessage } from './protocol.ts'
import { setClusterRole } from './role.ts'
import { appName, startOrExit } from './start.ts'
import { createTopicRelay } from './topics-relay.ts'

export interface PrimaryOptions {
  readonly workers: number
  /** Forks the workers (node:cluster; tests give a fake). */
  readonly cluster?: Pick<Cluster, 'fork'>
  readonly effects?: ProcessEffects
}

interface Member {
  readonly worker: Worker
  listening: boolean
  code: number | null
  signal: string | null
  stoppedAccepting: () => void
  readonly stopped: Promise<void>
  readonly exited: Promise<void>
}

const START_FAILURE_WINDOW_MS = 10_000
/** How long a stop hook may take (installShutdown's default). */
const STOP_HOOK_MS = 10_000
/** How long phase 1 of the shutdown waits for the workers to stop accepting, on top of `server.drainDelay`. */
const STOP_ACCEPTING_MS = 5000

export async function runPrimary(app: VelaApp, opts: PrimaryOptions): Promise<void> {
  const { workers, cluster = nodeCluster, effects = processEffects } = opts
  const { print } = effects
  const name = appName(app)
  // The workers' own bounds (installShutdown's, from the same config), with some slack.
  const stopAcceptingMs = app.config.server.drainDelay + STOP_ACCEPTING_MS
  const drainMs = app.config.server.shutdownTimeout + STOP_HOOK_MS + 2000
  setClusterRole({ role: 'primary', id: 0, workers })
  if (!(await startOrExit(app, undefined, effects))) return

  const members = new Map<number, Member>()
  const startFailures: number[] = []
  const delayedForks = new Set<NodeJS.Timeout>()
  let announced = false
  let stopping: Promise<void> | undefined
  const topics = createTopicRelay(print)

  const send = (worker: Worker, message: ToWorker) => {
    if (worker.isConnected()) worker.send(message, () => {})
  }

  function fork(): void {
    const worker = cluster.fork({ [WORKER_ENV]: '1' })
    let stoppedAccepting!: () => void
    let exited!: () => void
    const member: Member = {
      worker,
      listening: false,
      code: null,
      signal: null,
      stoppedAccepting: () => stoppedAccepting(),
      stopped: new Promise((resolve) => (stoppedAccepting = resolve)),
      exited: new Promise((resolve) => (exited = resolve)),
    }
    members.set(worker.id, member)
    worker.on('message', (message: unknown) => {
      if (isMessage(message, 'listening')) {
        member.listening = true
        if (!announced && [...members.values()].filter((m) => m.listening).length >= workers) {
          announced = true
          print(`vela: ${name} listening on ${message.address} with ${workers} workers`)
        }
      } else if (isMessage(message, 'stopped-accepting')) {
        member.stoppedAccepting()
        // Stopped by a signal of its own: the other workers keep the port open, it may drain now.
        if (!stopping) send(worker, { vela: 'drain' })
      } else topics.message(worker, message)
    })
    // A failed signal or IPC write to the worker: without a listener it would crash the primary.
    worker.on('error', (err: Error) =>
      print(`[vela] worker ${worker.id} (pid ${worker.process.pid}): ${err.message}`, true),
    )
    worker.once('exit', (code: number | null, signal: string | null) => {
      members.delete(worker.id)
      topics.gone(worker.id)
      member.code = code
      member.signal = signal
      member.stoppedAccepting()
      exited()
      if (!stopping) replace(member)
    })
  }

  function replace({ worker, listening, code, signal }: Member): void {
    const what = `worker ${worker.id} (pid ${worker.process.pid}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`
    const failed = code !== 0
    if (listening) {
      print(`[vela] ${what}; starting a new one`, failed)
      return fork()
    }
    const now = Date.now()
    startFailures.push(now)
    while (startFailures[0]! <= now - START_FAILURE_WINDOW_MS) startFailures.shift()
    if (startFailures.length > workers) {
      print(
        `vela: ${name}: ${what} before it listened; workers keep failing to start (${startFailures.length} in ${START_FAILURE_WINDOW_MS / 1000} s), stopping`,
        true,
      )
      stopping = shutdown('workers failing to start', 1)
      return
    }
    const delay = Math.min(2000, 100 * 2 ** (startFailures.length - 1))
    print(`[vela] ${what} before it listened; starting a new one in ${delay} ms`, failed)
    const timer = setTimeout(() => (delayedForks.delete(timer), fork()), delay)
    delayedForks.add(timer)
  }

  async function shutdown(reason: string, code: number): Promise<void> {
    for (const timer of delayedForks) clearTimeout(timer)
    const live = [...members.values()]
    const deadline = setTimeout(
      () => {
        print('[vela] shutdown overran its deadline; exiting', true)
        effects.exit(1)
      },
      stopAcceptingMs + drainMs + STOP_HOOK_MS + 1000,
    )
    deadline.unref()
    print(`[vela] ${reason}: shutting down ${live.length} workers: they stop accepting connections, then drain`)
    for (const m of live) send(m.worker, { vela: 'stop-accepting' })
    await within(Promise.all(live.map((m) => m.stopped)), stopAcceptingMs)
    for (const m of live) send(m.worker, { vela: 'drain' })
    const exited = Promise.all(live.map((m) => m.exited))
    if (!(await within(exited, drainMs))) {
      for (const m of members.values()) {
        print(`[vela] worker ${m.worker.id} (pid ${m.worker.process.pid}) did not exit in time; killing it`, true)
        m.worker.process.kill('SIGKILL')
      }
      await exited
    }
    if (live.some((m) => m.code !== 0)) code = 1
    try {
      await app.stop()
    } catch (err) {
      print(`[vela] the stop hook failed: ${printable(err)}`, true)
      code = 1
    }
    clearTimeout(deadline)
    print('[vela] shutdown complete')
    effects.exit(code)
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    effects.onSignal(signal, () => {
      if (!stopping) return void (stopping = shutdown(signal, 0))
      // The workers see their IPC channel close and exit at once.
      print(`[vela] ${signal} again: exiting now`)
      effects.exit(1)
    })
  }
  for (let i = 0; i < workers; i++) fork()
}

/** Whether `promise` settled within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  const done = await Promise.race([promise.then(() => true), late])
  clearTimeout(timer)
  return done
}
