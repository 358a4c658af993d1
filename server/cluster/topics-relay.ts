/**
 * The primary's side of WebSocket topics with no broker configured (topics-broker.ts is the
 * workers'): a worker whose hub started says `topics-join` and is answered `topics-joined`; each
 * `topic` a joined worker sends is forwarded to every other joined worker that is still connected.
 * A worker that exits is forgotten (`gone`); its replacement joins when its own app starts.
 *
 * Bounded per worker: `worker.send` queues what that worker has not read yet (its event loop
 * busy), so the relay counts the bytes sent to each worker whose write has not completed (node
 * calls `send`'s callback then) and drops what would take them over the bound, for that worker
 * only: one line when it starts dropping for a worker, one when it is back under half the bound.
 */
import type { Worker } from 'node:cluster'
import type { TopicEnvelope } from './protocol.ts'
import { isMessage } from './protocol.ts'
import { IPC_MAX_PENDING_BYTES, envelopeBytes, isTopicEnvelope } from './topics-broker.ts'

/** The primary's relay of topic messages between its workers. */
export interface TopicRelay {
  /** Handles a worker's message if it is about topics; false for any other. */
  message(worker: Worker, message: unknown): boolean
  /** The worker exited: no more messages to it. */
  gone(workerId: number): void
}

interface Joined {
  readonly worker: Worker
  pending: number
  dropping: boolean
}

export function createTopicRelay(
  print: (line: string, error?: boolean) => void,
  maxPendingBytes = IPC_MAX_PENDING_BYTES,
): TopicRelay {
  const joined = new Map<number, Joined>()
  const name = (w: Worker) => `worker ${w.id} (pid ${w.process.pid})`

  function forward(to: Joined, envelope: TopicEnvelope, size: number): void {
    if (!to.worker.isConnected()) return
    if (to.pending + size > maxPendingBytes) {
      if (!to.dropping) {
        to.dropping = true
        print(
          `[vela] ${name(to.worker)}: its IPC channel is backed up (${to.pending} bytes of topic messages unsent); topic messages to it are dropped until it catches up`,
          true,
        )
      }
      return
    }
    to.pending += size
    to.worker.send(envelope, () => {
      to.pending -= size
      if (to.dropping && to.pending <= maxPendingBytes / 2) {
        to.dropping = false
        print(`[vela] ${name(to.worker)}: caught up; topic messages reach it again`)
      }
    })
  }

  return {
    message(worker, message) {
      if (isMessage(message, 'topics-join')) {
        if (!joined.has(worker.id)) joined.set(worker.id, { worker, pending: 0, dropping: false })
        if (worker.isConnected()) worker.send({ vela: 'topics-joined' }, () => {})
        return true
      }
      if (!isTopicEnvelope(message)) return false
      const size = envelopeBytes(message)
      for (const [id, to] of joined) if (id !== worker.id) forward(to, message, size)
      return true
    },
    gone(workerId) {
      joined.delete(workerId)
    },
  }
}
