/**
 * The shapes of the app's entry points (`app.fetch`, `app.handleNode`, `app.upgrade`), which the
 * low-level stream handler form (`wrap`, `wrapNode`, `wrapUpgrade`) wraps. Types only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { WebSocketContext, WebSocketHandler } from '../websocket/define.ts'
import type { WebSocketLimits } from './websocket.ts'

/** Answers a web `Request` with a `Response`: `app.fetch`, and what a stream handler's `wrap` wraps. */
export type FetchHandler = (request: Request) => Promise<Response>
/** Answers a request of node's HTTP server on its `res`: `app.handleNode`, and what `wrapNode` wraps. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void

/** The app's decision on a WebSocket upgrade request. */
export type UpgradeDecision =
  | {
      readonly accept: true
      readonly handler: WebSocketHandler
      readonly context: WebSocketContext
      /** The route's limits, `server.websocket` filling in what it leaves out. */
      readonly limits: Readonly<Required<WebSocketLimits>>
      /** Headers for the 101 (cookies a plugin set, e.g. a new session). */
      readonly headers: Headers
      /** The app's logger, for failures of the connection's hooks. */
      readonly log: (message: string, error: unknown, key?: string) => void
    }
  /** Refused: `response` is sent instead of upgrading (its body is read once, to be written on the socket). */
  | { readonly accept: false; readonly response: Response }

/** Decides a WebSocket upgrade request: `app.upgrade`, and what `wrapUpgrade` wraps. */
export type UpgradeHandler = (request: Request) => Promise<UpgradeDecision>
