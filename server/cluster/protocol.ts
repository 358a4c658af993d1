/**
 * The messages between the primary and its workers (over node:cluster's IPC channel), and the
 * environment that marks a worker. The shutdown is in two phases so that no request is lost when
 * every worker stops at once (primary.ts explains why):
 *
 *   primary → worker  `stop-accepting`     readiness says draining; after `server.drainDelay` stop
 *                                          taking new connections, keep serving the open ones
 *   worker → primary  `stopped-accepting`  done (also sent unasked when the worker got a signal)
 *   primary → worker  `drain`              run the graceful shutdown (listener.close, stop hook, exit)
 *   worker → primary  `listening`          started and listening, with the address for the start line
 *
 * WebSocket topics with no broker configured (topics-broker.ts, topics-relay.ts):
 *
 *   worker → primary  `topics-join`        this worker's topics hub wants the other workers' messages
 *   primary → worker  `topics-joined`      it gets them from now on (the hub reports subscribed)
 *   either way        `topic`              one published message: worker → primary, then primary →
 *                                          every other joined worker
 */

/** Set in a worker's environment by the primary: a plain cluster worker of some other tool is not one of ours. */
export const WORKER_ENV = 'VELA_CLUSTER_WORKER'

/**
 * A topic message on the IPC channel. node's cluster channel carries JSON (its default
 * serialization), so bytes travel as base64 (`binary: true`); text, the common case, as is.
 */
export interface TopicEnvelope {
  readonly vela: 'topic'
  /** The app's name: hubs of another app in the same process ignore it. */
  readonly app: string
  /** The publishing hub's instance id: its own echo is ignored. */
  readonly from: string
  readonly namespace: string
  readonly topic: string
  readonly data: string
  readonly binary?: true
}

export type ToWorker =
  | { readonly vela: 'stop-accepting' }
  | { readonly vela: 'drain' }
  | { readonly vela: 'topics-joined' }
  | TopicEnvelope

export type ToPrimary =
  | { readonly vela: 'listening'; readonly address: string }
  | { readonly vela: 'stopped-accepting'; readonly signal?: string }
  | { readonly vela: 'topics-join' }
  | TopicEnvelope

export type Message = ToWorker | ToPrimary

export function isMessage<K extends Message['vela']>(
  message: unknown,
  kind: K,
): message is Extract<Message, { vela: K }> {
  return typeof message === 'object' && message !== null && (message as { vela?: unknown }).vela === kind
}
