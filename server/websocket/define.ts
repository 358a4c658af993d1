/**
 * WebSocket route handlers (`protocol: 'ws'` routes), on crossws peers.
 *
 *   ['/chat/:room', defineWebSocket<{ user: string }>({
 *     open(peer) { peer.send(`hello ${peer.context.authData.user}`) },
 *     message(peer, message) { peer.send(message.text()) },
 *   }), { protocol: 'ws' }]
 *
 * The upgrade request goes through the group's pre-request plugins and security callback first
 * (server/websocket/upgrade.ts): a rejection is answered over HTTP before upgrading. What the
 * hooks then get on `peer.context`: `authData` (the security callback's object, `{}` when it
 * returned `true` or there is none), `bindings` (path parameters) and `req` (the upgrade request
 * as plugins left it: `req.session`, `req.query`, `req.headers`…).
 *
 * A hook that throws (or rejects) is logged and the connection is closed with 1011.
 *
 * Limits (`server.websocket` for every route, or the second argument for this one): a message
 * larger than `maxMessageBytes` (1 MiB) closes the connection with 1009 (Message Too Big) as soon
 * as its frame header announces it, nothing of it buffered; a message sent while more than
 * `maxBufferedBytes` (4 MiB) are still queued for the client is dropped and the connection closed
 * with 1013 (Try Again Later), the socket destroyed if the client has not read that close within
 * a second (server/listener/websockets.ts).
 *
 * Topics (docs/websocket-topics.md): `peer.subscribe(topic)` / `peer.unsubscribe(topic)`;
 * `peer.publish(topic, message)` reaches every other subscriber, `peer.context.req.publish` (as
 * `req.publish` in any handler, and `app.publish`) every subscriber. A topic is app-wide, and
 * spans instances when `server.websocket.pubsub` is set (server/websocket/topics.ts).
 *
 * Browsers send cookies with cross-site WebSocket requests and the same-origin policy does not
 * apply to them: a security callback that trusts the session should also check
 * `req.headers.get('origin')` against the app's own origin.
 */
import type { Message, Peer, WSError } from 'crossws'
import type { VelaRequest } from '../request.ts'
import type { WebSocketLimits } from '../contracts/websocket.ts'
import type { MaybePromise } from '../contracts/primitives.ts'
import { VelaError } from '../errors/vela-error.ts'
import { checkWebSocketLimits } from '../app/check-values.ts'

/** The limits of `server.websocket` when the config does not set them. */
export const WEBSOCKET_DEFAULTS: Required<WebSocketLimits> = { maxMessageBytes: 1024 * 1024, maxBufferedBytes: 4 * 1024 * 1024 }

export interface WebSocketContext<A = unknown> {
  readonly authData: A
  readonly bindings: Readonly<Record<string, string>>
  readonly req: VelaRequest<A>
}

/** A crossws peer whose `context` is the Vela upgrade context. */
export type WebSocketPeer<A = unknown> = Omit<Peer, 'context'> & { readonly context: WebSocketContext<A> }

export interface WebSocketHooks<A = unknown> {
  /** The connection is open. */
  open?: (peer: WebSocketPeer<A>) => MaybePromise<void>
  /** A message arrived: `message.text()`, `message.json()`, `message.uint8Array()`. */
  message?: (peer: WebSocketPeer<A>, message: Message) => MaybePromise<void>
  /** The connection closed (`code` 1001 when the server shut down). */
  close?: (peer: WebSocketPeer<A>, details: { code?: number; reason?: string }) => MaybePromise<void>
  error?: (peer: WebSocketPeer<A>, error: WSError) => MaybePromise<void>
}

export interface WebSocketHandler<A = unknown> extends WebSocketHooks<A> {
  readonly kind: 'vela.websocket'
  /** This route's own limits; what it leaves out comes from `server.websocket`. */
  readonly limits?: Readonly<WebSocketLimits>
}

export function defineWebSocket<A = unknown>(hooks: WebSocketHooks<A>, limits?: WebSocketLimits): WebSocketHandler<A> {
  for (const name of Object.keys(hooks)) {
    if (!['open', 'message', 'close', 'error'].includes(name)) throw new VelaError('VELA_ERR_WEBSOCKET', `defineWebSocket: unknown hook ${JSON.stringify(name)}; use open, message, close or error`)
    if (typeof (hooks as Record<string, unknown>)[name] !== 'function') throw new VelaError('VELA_ERR_WEBSOCKET', `defineWebSocket: hook ${name} must be a function`)
  }
  checkWebSocketLimits('VELA_ERR_WEBSOCKET', 'defineWebSocket: limits', limits)
  return limits ? { kind: 'vela.websocket', ...hooks, limits: { ...limits } } : { kind: 'vela.websocket', ...hooks }
}
