/**
 * WebSocket route handlers (`protocol: 'ws'` routes), on crossws peers.
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
 * a second (server/listener/websockets.ts). A client sending more than `maxMessagesPerSecond`
 * (100, bursts of one second's worth) is closed with 1008 (Policy Violation); one that neither
 * sends anything nor answers the server's pings for `idleTimeout` (30 s) has its socket destroyed.
 *
 * Topics (docs/internals/websocket-topics.md): `peer.subscribe(topic)` / `peer.unsubscribe(topic)`;
 * `peer.publish(topic, message)` reaches every other subscriber, `peer.context.req.publish` (as
 * `req.publish` in any handler, and `app.publish`) every subscriber. A topic is app-wide, and
 * spans instances when `server.websocket.pubsub` is set (server/websocket/topics.ts).
 *
 * Origins: browsers send cookies with cross-site WebSocket requests and the same-origin policy
 * does not apply to them, so an upgrade whose `Origin` is neither the app's own nor in
 * `allowedOrigins` is answered 403 before the group's plugins and security callback run
 * (server/websocket/origins.ts). A request without `Origin` (not a browser) is let through.
 */
import type { Message, Peer, WSError } from 'crossws'
import type { VelaRequest } from '../request.ts'
import type { WebSocketOptions } from '../contracts/websocket.ts'
import type { MaybePromise } from '../contracts/primitives.ts'
import { VelaError } from '../errors/vela-error.ts'
import { checkWebSocketLimits } from '../app/check-values.ts'

/** The limits and allowed origins of `server.websocket` when the config does not set them. */
export const WEBSOCKET_DEFAULTS: Readonly<Required<WebSocketOptions>> = Object.freeze({
  maxMessageBytes: 1024 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxMessagesPerSecond: 100,
  idleTimeout: 30_000,
  closeTimeout: 1000,
  allowedOrigins: Object.freeze([]),
})

/** What a WebSocket's hooks find on `peer.context`: the security callback's data, the path parameters and the upgrade request. */
export interface WebSocketContext<A = unknown> {
  /** The security callback's object (`{}` when it returned `true` or the group has none). */
  readonly authData: A
  /** The path parameters of the upgrade request (`:room` → `bindings.room`). */
  readonly bindings: Readonly<Record<string, string>>
  /** The upgrade request as the group's plugins left it (`req.session`, `req.query`, `req.publish`…). */
  readonly req: VelaRequest<A>
}

/** A crossws peer whose `context` is the Vela upgrade context. */
export type WebSocketPeer<A = unknown> = Omit<Peer, 'context'> & { readonly context: WebSocketContext<A> }

/** A WebSocket route's hooks: `open`, `message`, `close` and `error`, each given the peer. */
export interface WebSocketHooks<A = unknown> {
  /** The connection is open. */
  open?: (peer: WebSocketPeer<A>) => MaybePromise<void>
  /** A message arrived: `message.text()`, `message.json()`, `message.uint8Array()`. */
  message?: (peer: WebSocketPeer<A>, message: Message) => MaybePromise<void>
  /** The connection closed (`code` 1001 when the server shut down). */
  close?: (peer: WebSocketPeer<A>, details: { code?: number; reason?: string }) => MaybePromise<void>
  /** The connection failed. */
  error?: (peer: WebSocketPeer<A>, error: WSError) => MaybePromise<void>
}

/** A WebSocket route's handler made by `defineWebSocket`: its hooks and its own limits. */
export interface WebSocketHandler<A = unknown> extends WebSocketHooks<A> {
  readonly kind: 'vela.websocket'
  /** This route's own limits and allowed origins; what it leaves out comes from `server.websocket`. */
  readonly limits?: Readonly<WebSocketOptions>
}

const OPTIONS = Object.keys(WEBSOCKET_DEFAULTS)

/**
 * A WebSocket route's handler: its hooks, and optionally its own limits and allowed origins
 * (what it leaves out comes from `server.websocket`).
 *
 * @example
 * ```ts
 * import { defineRoutes, defineWebSocket } from 'vela'
 *
 * const chat = defineWebSocket(
 *   {
 *     open(peer) { peer.subscribe(peer.context.bindings.room) },
 *     message(peer, message) { peer.publish(peer.context.bindings.room, message.text()) },
 *   },
 *   { maxMessagesPerSecond: 20, allowedOrigins: ['https://app.example.com'] },
 * )
 *
 * export default defineRoutes({ prefix: '', security: false, routes: [['/chat/:room', chat, { protocol: 'ws' }]] })
 * ```
 */
export function defineWebSocket<A = unknown>(
  hooks: WebSocketHooks<A>,
  options?: WebSocketOptions,
): WebSocketHandler<A> {
  for (const name of Object.keys(hooks)) {
    if (!['open', 'message', 'close', 'error'].includes(name))
      throw new VelaError(
        'VELA_ERR_WEBSOCKET',
        `defineWebSocket: unknown hook ${JSON.stringify(name)}; use open, message, close or error`,
      )
    if (typeof (hooks as Record<string, unknown>)[name] !== 'function')
      throw new VelaError('VELA_ERR_WEBSOCKET', `defineWebSocket: hook ${name} must be a function`)
  }
  checkWebSocketLimits('VELA_ERR_WEBSOCKET', 'defineWebSocket: limits', options)
  for (const name of Object.keys(options ?? {})) {
    if (!OPTIONS.includes(name))
      throw new VelaError(
        'VELA_ERR_WEBSOCKET',
        `defineWebSocket: unknown option ${JSON.stringify(name)}; use ${OPTIONS.join(', ')}`,
      )
  }
  return options ? { kind: 'vela.websocket', ...hooks, limits: { ...options } } : { kind: 'vela.websocket', ...hooks }
}
