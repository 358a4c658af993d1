/**
 * What is known about a request before any route runs: its facts (what stream handlers observe,
 * observer.ts) and where it was routed. The runtime's exchanges (server/exchange/) implement
 * these; `VelaRequest` reads through them. Types only; imports nothing of the tree.
 */
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import type { Publish } from './topics.ts'

/** Where the request was routed: feeds listings, spans, audit lines and default views. */
export interface RouteInfo {
  /** The route's full path pattern, prefix included (`/api/products/:id`). */
  readonly path: string
  readonly prefix: string
  readonly controller: string
  readonly action: string
}

/** One query parameter's value: a string, or every value of a repeated parameter (`?tag=a&tag=b`). */
export type QueryValue = string | string[]

/**
 * One request as the runtime sees it when it starts, the same on every path (node's listener, a
 * web `Request`, a WebSocket upgrade). Values are computed on first read and kept, so an observer
 * pays only for what it reads. The object is the same for the whole request: an observer may keep
 * per-request state on it (under its own symbol, or in a `WeakMap`), and plugins reach it as
 * `req.facts`.
 */
export interface RequestFacts {
  /** Uppercase, as sent (`GET`, `PROPFIND`). */
  readonly method: string
  readonly scheme: 'http' | 'https'
  /** The host the request was sent to: the absolute-form target's, else `Host`, else the local address. Lowercase; IPv6 in brackets. */
  readonly host: string
  /** The port from the same place; the scheme's default when none is given. */
  readonly port: number
  /** The URL path (not decoded) that routing uses; escapes that need none and dot segments are resolved as URLs resolve them. */
  readonly path: string
  /** The query string as sent, without the `?`; undefined when the target has none (or an empty one). */
  readonly query: string | undefined
  /** The client's address as seen on the socket (no proxy headers trusted); undefined when unknown. */
  readonly peer: string | undefined
  /** The socket peer's port; undefined when unknown (a web `Request` with no node request behind it). */
  readonly peerPort: number | undefined
  /** The HTTP version (`1.0`, `1.1`, `2`); undefined when unknown (a web `Request` with no node request behind it). */
  readonly protocolVersion: string | undefined
  readonly userAgent: string | undefined
  /** From the framing: `content-length`, 0 with neither it nor `transfer-encoding`, undefined for a chunked body. */
  readonly requestBodySize: number | undefined
  /** `'upgrade'` for a WebSocket handshake; `'http'` otherwise. */
  readonly kind: 'http' | 'upgrade'
  /**
   * The request's id: the incoming `x-request-id` (or the header `server.requestId` names) when a
   * proxy listed in `server.trustProxy` sent a sane one, else one generated for it. Sent back on
   * the response (unless the app set that header itself) and carried by every log line the
   * request writes.
   */
  readonly id: string
  /** One request header by name, in any case (repeated values joined by `, `). */
  header(name: string): string | undefined
  /** The names of the request's headers, lowercase (for propagators that iterate them). */
  headerNames(): string[]
}

/** What a `VelaRequest` takes from its app: the body and field limits and the app's WebSocket `publish`. */
export interface RequestScope {
  readonly bodyLimit: number
  /** Most fields a form body or query string may have (`server.maxFields`). */
  readonly maxFields: number
  readonly publish: Publish
  /** `server.trustProxy` compiled; undefined when no proxy is trusted. */
  readonly proxies?: ProxyTrust
}

/** The trusted proxies, compiled once at start-up (server/exchange/forwarded.ts). */
export interface ProxyTrust {
  trusts(address: string): boolean
}

/** Where `VelaRequest` keeps a body it read before the read's promise resolves. */
export interface BodySink {
  body: string | undefined
}

/** What `VelaRequest` is built over: the facts, and what the exchange holds of the request itself. */
export interface ExchangeRequest extends RequestFacts {
  /** Adds a header to whatever reply the request gets (see `VelaRequest.setHeader`). */
  setHeader(name: string, value: string): void
  /** The h3 event (with its web `Request` and parsed URL), made on first use on node. */
  readonly event: H3Event
  /** The event if one was made: headers set through h3 utilities live on it. */
  readonly eventIfMade: H3Event | undefined
  /** node's request, when the request came from node's listener. */
  readonly nodeRequest: IncomingMessage | undefined
  /** Reads the whole body (once) under `limit` bytes; a body over it is a 413. */
  readBody(limit: number, sink: BodySink): Promise<string>
}
