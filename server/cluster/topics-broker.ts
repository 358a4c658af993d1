/**
 * The topics broker of a cluster worker with no broker configured (`VELA_WORKERS` > 1, no
 * `server.websocket.pubsub`): the app's hub (server/websocket/topics.ts) relays through the
 * cluster primary, over node's IPC channel, as it would through Redis. Each publish goes to the
 * primary (`process.send`); the primary sends it on to every other worker that joined
 * (topics-relay.ts), where it is delivered to that worker's subscribers. So every subscriber on
 * one machine gets a message once; nothing is stored or replayed.
 *
 * Subscribed means the primary answered `topics-join`: from then on it sends this worker every
 * other worker's messages, so the hub waits for that answer before the app reports ready.
 *
 * Bounded: `process.send` never refuses a message, it queues what the primary has not read yet
 * (a primary busy, or flooded by many workers). The broker counts the bytes of its messages not
 * yet written to the channel (node calls `send`'s callback once a message is) and drops a publish
 * that would take them over `maxPendingBytes`: that message reaches this worker's subscribers
 * only. One log line when it starts dropping, one when it is back under half the bound.
 */
import type { SyncDriver, SyncMessage } from 'crossws'
import type { BrokerContext, TopicBroker } from '../contracts/topics.ts'
import type { TopicEnvelope } from './protocol.ts'
import { WORKER_ENV, isMessage } from './protocol.ts'
import { clusterRole } from './role.ts'

/** A worker's side of the IPC channel: the process itself, or a fake in tests. */
export interface IpcLink {
  on(event: 'message', listener: (message: unknown) => void): unknown
  off(event: 'message', listener: (message: unknown) => void): unknown
  send?(message: unknown, sendHandle: undefined, options: undefined, callback: (error: Error | null) => void): boolean
}

export interface IpcTopicBrokerOptions {
  /** The channel to the primary (default: this process's). */
  readonly link?: IpcLink
  /** Bytes of topic messages written to the channel but not yet read from it, at most (default 8 MiB). */
  readonly maxPendingBytes?: number
}

/** What the channel holds at most of one side's unsent topic messages, in bytes. */
export const IPC_MAX_PENDING_BYTES = 8 * 1024 * 1024

/** The IPC form of a topic message (bytes in base64: the channel carries JSON). */
export function toEnvelope(app: string, from: string, message: SyncMessage): TopicEnvelope {
  const { namespace, topic, data } = message
  return typeof data === 'string'
    ? { vela: 'topic', app, from, namespace, topic, data }
    : {
        vela: 'topic',
        app,
        from,
        namespace,
        topic,
        data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'),
        binary: true,
      }
}

/** The crossws message of an IPC envelope. */
export function fromEnvelope(envelope: TopicEnvelope): SyncMessage {
  const { namespace, topic, data } = envelope
  return { namespace, topic, data: envelope.binary ? new Uint8Array(Buffer.from(data, 'base64')) : data }
}

/** About what an envelope costs on the channel: its text, plus the JSON around it. */
export const envelopeBytes = (e: TopicEnvelope): number =>
  e.data.length + e.topic.length + e.from.length + e.app.length + 96

/** Whether `message` is a well-formed topic envelope (what a worker or the primary sent). */
export function isTopicEnvelope(message: unknown): message is TopicEnvelope {
  if (!isMessage(message, 'topic')) return false
  const m = message as unknown as Record<string, unknown>
  return (
    typeof m.app === 'string' &&
    typeof m.from === 'string' &&
    typeof m.namespace === 'string' &&
    typeof m.topic === 'string' &&
    typeof m.data === 'string'
  )
}

/**
 * A crossws sync adapter relaying topics through the cluster primary; `createApp` gives it to
 * the hub of a cluster worker when `server.websocket.pubsub` is unset.
 */
export function ipcTopicBroker(opts: IpcTopicBrokerOptions = {}): (ctx: BrokerContext) => SyncDriver {
  const link: IpcLink = opts.link ?? process
  const max = opts.maxPendingBytes ?? IPC_MAX_PENDING_BYTES
  return (ctx) => {
    const log = ctx.log ?? ((message: string) => console.error(`[vela] ${message}`))
    const app = ctx.app ?? 'app'
    let onMessage: ((message: unknown) => void) | undefined
    let pending = 0
    let dropping = false
    let closed = false

    const sent = (size: number) => () => {
      pending -= size
      if (dropping && pending <= max / 2) {
        dropping = false
        log('WebSocket topics: the IPC channel to the cluster primary caught up; messages reach every worker again')
      }
    }

    return {
      subscribe(deliver) {
        if (typeof link.send !== 'function')
          throw new Error('not a cluster worker: this process has no IPC channel to a primary')
        return new Promise<void>((joined) => {
          onMessage = (message) => {
            if (isMessage(message, 'topics-joined')) joined()
            else if (isTopicEnvelope(message) && message.app === app && message.from !== ctx.id)
              deliver(fromEnvelope(message))
          }
          link.on('message', onMessage)
          // The callback: a channel closed under the send (the primary gone) is not an uncaught error.
          link.send!({ vela: 'topics-join' }, undefined, undefined, () => {})
        })
      },
      publish(message) {
        if (closed) return
        const envelope = toEnvelope(app, ctx.id, message)
        const size = envelopeBytes(envelope)
        if (pending + size > max) {
          if (!dropping) {
            dropping = true
            log(
              `WebSocket topics: the IPC channel to the cluster primary is backed up (${pending} bytes unsent); messages reach this worker only until it catches up`,
            )
          }
          return
        }
        pending += size
        link.send?.(envelope, undefined, undefined, sent(size))
      },
      close() {
        closed = true
        if (onMessage) link.off('message', onMessage)
        onMessage = undefined
      },
    }
  }
}

/**
 * The hub's broker when none is configured: the relay through the primary in a worker that
 * Vela's primary forked (runWorker has set the role, and the IPC channel leads to a primary that
 * relays), nothing anywhere else (a single process, the primary, a cluster worker of another tool).
 */
export function workerTopicBroker(env: NodeJS.ProcessEnv = process.env): TopicBroker | undefined {
  return clusterRole()?.role === 'worker' && env[WORKER_ENV] === '1' ? ipcTopicBroker() : undefined
}
