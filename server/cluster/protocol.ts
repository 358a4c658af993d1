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
 */

/** Set in a worker's environment by the primary: a plain cluster worker of some other tool is not one of ours. */
export const WORKER_ENV = 'VELA_CLUSTER_WORKER'

export type ToWorker = { readonly vela: 'stop-accepting' } | { readonly vela: 'drain' }

export type ToPrimary =
  | { readonly vela: 'listening'; readonly address: string }
  | { readonly vela: 'stopped-accepting'; readonly signal?: string }

export type Message = ToWorker | ToPrimary

export function isMessage<K extends Message['vela']>(message: unknown, kind: K): message is Extract<Message, { vela: K }> {
  return typeof message === 'object' && message !== null && (message as { vela?: unknown }).vela === kind
}
