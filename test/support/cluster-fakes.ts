/**
 * Fakes for server/cluster's tests (primary.test.ts, worker.test.ts, topics-*.test.ts):
 * node:cluster's workers, a worker's IPC channel and the process's effects, recorded, so that
 * primary.ts, worker.ts and the topics relay run in the test process. A fake channel can hold
 * its writes (`hold`): their callbacks wait for `release()`, as node's do for a peer that does not
 * read. Real processes are the worker test's (test/cluster/workers.test.ts).
 */
import { EventEmitter } from 'node:events'
import type { Worker } from 'node:cluster'
import type { PrimaryChannel, ProcessEffects } from '../../server/cluster/effects.ts'
import type { IpcLink } from '../../server/cluster/topics-broker.ts'
import type { ToPrimary } from '../../server/cluster/protocol.ts'

export class FakeWorker extends EventEmitter {
  readonly sent: unknown[] = []
  readonly kills: string[] = []
  connected = true
  readonly process: { pid: number; kill: (signal: string) => void }

  constructor(
    readonly id: number,
    readonly env: Record<string, string>,
  ) {
    super()
    this.process = { pid: 10_000 + id, kill: (signal) => void this.kills.push(signal) }
  }

  isConnected(): boolean {
    return this.connected
  }

  /** While true, send callbacks wait for `release()` (the worker reads nothing). */
  hold = false
  readonly #held: ((error: Error | null) => void)[] = []

  send(message: unknown, callback?: (error: Error | null) => void): boolean {
    this.sent.push(message)
    this.emit('sent', message)
    if (this.hold && callback) this.#held.push(callback)
    else callback?.(null)
    return true
  }

  /** Completes the held writes. */
  release(): void {
    this.hold = false
    for (const done of this.#held.splice(0)) done(null)
  }

  /** The worker says something to the primary. */
  says(message: ToPrimary): void {
    this.emit('message', message)
  }

  exits(code: number | null, signal: string | null = null): void {
    this.connected = false
    this.emit('exit', code, signal)
  }
}

export function fakeCluster() {
  const workers: FakeWorker[] = []
  return {
    workers,
    fork(env?: Record<string, string>): Worker {
      const worker = new FakeWorker(workers.length + 1, env ?? {})
      workers.push(worker)
      return worker as unknown as Worker
    },
  }
}

export interface RecordedEffects extends ProcessEffects {
  readonly lines: string[]
  readonly exits: number[]
  /** Sends a signal to the handlers registered for it. */
  signal(signal: NodeJS.Signals): void
  /** The code of the first exit() call, once there is one. */
  exited(): Promise<number>
}

export function recordedEffects(): RecordedEffects {
  const handlers = new Map<NodeJS.Signals, ((s: NodeJS.Signals) => void)[]>()
  const lines: string[] = []
  const exits: number[] = []
  const waiting: ((code: number) => void)[] = []
  return {
    lines,
    exits,
    onSignal: (signal, handler) => void handlers.set(signal, [...(handlers.get(signal) ?? []), handler]),
    exit: (code) => {
      exits.push(code)
      for (const resolve of waiting.splice(0)) resolve(code)
    },
    print: (line, error) => void lines.push(error ? `E ${line}` : line),
    signal: (signal) => handlers.get(signal)?.forEach((h) => h(signal)),
    exited: () => (exits.length ? Promise.resolve(exits[0]!) : new Promise((resolve) => waiting.push(resolve))),
  }
}

export function fakeChannel() {
  const sent: ToPrimary[] = []
  const emitter = new EventEmitter()
  const channel: PrimaryChannel = {
    onMessage: (handler) => void emitter.on('message', handler),
    send: (message) => {
      sent.push(message)
      emitter.emit('sent', message)
    },
  }
  return {
    channel,
    sent,
    /** The primary says something to the worker. */
    says: (message: unknown) => emitter.emit('message', message),
    /** Resolves with the next message the worker sends of this kind (or one sent already). */
    next: (kind: ToPrimary['vela']) =>
      new Promise<ToPrimary>((resolve) => {
        const seen = sent.find((m) => m.vela === kind)
        if (seen) return resolve(seen)
        const on = (m: ToPrimary) => m.vela === kind && (emitter.off('sent', on), resolve(m))
        emitter.on('sent', on)
      }),
  }
}

/** A worker's IPC channel as the topics broker sees it (`process`'s `on`/`off`/`send`). */
export function fakeIpcLink() {
  const emitter = new EventEmitter()
  const sent: unknown[] = []
  const held: ((error: Error | null) => void)[] = []
  const state = { hold: false }
  const link: IpcLink = {
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    send(message, _handle, _options, callback) {
      sent.push(message)
      if (state.hold) held.push(callback)
      else callback(null)
      return true
    },
  }
  return {
    link,
    sent,
    /** Holds (true) or completes at once (false) the writes from now on. */
    hold: (on: boolean) => void (state.hold = on),
    /** Completes the held writes. */
    release: () => held.splice(0).forEach((done) => done(null)),
    /** The primary says something to the worker. */
    says: (message: unknown) => emitter.emit('message', message),
    listeners: () => emitter.listenerCount('message'),
  }
}
