/**
 * Fakes for server/cluster's tests (primary.test.ts, worker.test.ts): node:cluster's workers
 * and the process's effects, recorded, so that primary.ts and worker.ts run in the test process.
 * Real processes are the worker test's (test/cluster/workers.test.ts).
 */
import { EventEmitter } from 'node:events'
import type { Worker } from 'node:cluster'
import type { PrimaryChannel, ProcessEffects } from '../../server/cluster/effects.ts'
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

  send(message: unknown, callback?: (error: Error | null) => void): boolean {
    this.sent.push(message)
    this.emit('sent', message)
    callback?.(null)
    return true
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
