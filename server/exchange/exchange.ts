/**
 * One request and its response, whatever carried them: the runtime's single request path. Every
 * step after the listener works on an exchange: routing (route.ts), the route's pipeline and the
 * request object (server/pipeline/run.ts, server/request.ts), the observers of stream handlers
 * (entry-points.ts) and the delivery of the response (`send`). Implementations: node's request and
 * response (node.ts, the direct path), a web `Request` (web.ts), a WebSocket upgrade
 * (server/websocket/upgrade.ts). An exchange is also the request's facts (`RequestFacts`), the
 * object observers are given.
 */
import type { H3Event } from 'h3'
import type { IncomingMessage } from 'node:http'
import type { BodySink, ExchangeRequest, RequestFacts, RouteInfo } from '../contracts/request.ts'
import type { Outcome } from '../respond.ts'
import type { Lifecycle } from './lifecycle.ts'
import { addedHeaderName, withHeaders } from './reply-headers.ts'
import { GENERATED_IDS } from './request-id.ts'

/**
 * The app's log: the message, the error if any, the line's kind for coalescing, and the request
 * a line is about (server/app/coalesce-log.ts).
 */
export type Log = (message: string, error: unknown, key?: string, request?: RequestFacts) => void

/** The handler deadline a pending outcome runs under (server/pipeline/deadline.ts). */
export interface Deadline {
  /** The deadline passed and its answer was sent instead of the outcome. */
  readonly expired: boolean
  /** The outcome arrived: ends the deadline. False when it had expired (drop the outcome). */
  settle(): boolean
}

const kExchange = Symbol('vela.exchange')

type Carrier = { [kExchange]?: Exchange }

export abstract class Exchange<R = unknown> implements ExchangeRequest {
  /** Set by the route's pipeline as it starts; undefined for requests no route took. */
  route: RouteInfo | undefined = undefined
  /** A stream handler failed as the request started (its observers' outcome says so). */
  failure: unknown = undefined
  /** What the route threw when its answer was a server error (500, or a coded 503/504). */
  exception: unknown = undefined
  /** `send` has been called. */
  sent = false
  /** What `send` gave: nothing on node, the response's promise on the web, the upgrade decision's. */
  result: R | undefined = undefined
  /** Set by the route's pipeline when its outcome is pending under a handler deadline. */
  deadline: Deadline | undefined = undefined
  /**
   * The app's ids and response step (lifecycle.ts), set by the entry point that took the request:
   * whatever outcome the exchange sends goes through it first (`finished`).
   */
  lifecycle: Lifecycle | undefined = undefined
  /** Headers added through `setHeader` (lowercase names), merged into whatever is sent. */
  addedHeaders: Record<string, string> | undefined = undefined
  #id: string | undefined = undefined

  /**
   * Registers the exchange on the object that carries the request (node's request, the web
   * Request), where `matchedRoute` and the low-level stream handler forms find it.
   */
  constructor(carrier: object) {
    ;(carrier as Carrier)[kExchange] = this
  }

  /** The URL path routing uses (see `RequestFacts.path`). */
  abstract readonly path: string
  /** The path has percent-escapes (so bindings need decoding). */
  abstract readonly escaped: boolean
  /** The path has invalid percent-encoding (a 400). */
  abstract readonly malformed: boolean
  /** Length of the path and query, for the 414 check. */
  abstract readonly targetLength: number
  abstract readonly method: string
  abstract readonly kind: 'http' | 'upgrade'
  abstract readonly scheme: 'http' | 'https'
  abstract readonly host: string
  abstract readonly port: number
  abstract readonly query: string | undefined
  abstract readonly peer: string | undefined
  abstract readonly peerPort: number | undefined
  abstract readonly protocolVersion: string | undefined
  abstract readonly userAgent: string | undefined
  abstract readonly requestBodySize: number | undefined
  abstract readonly event: H3Event
  abstract readonly eventIfMade: H3Event | undefined
  abstract readonly nodeRequest: IncomingMessage | undefined
  abstract header(name: string): string | undefined
  abstract headerNames(): string[]
  abstract readBody(limit: number, sink: BodySink): Promise<string>

  /** Calls `done(status, bytes)` once, when the response has been sent or abandoned. Before `send`. */
  abstract whenSent(done: (status: number, bytes: number) => void): void

  /** Delivers the outcome, once (a later call gives the first result and writes nothing). */
  abstract send(outcome: Outcome | Promise<Outcome>, log: Log): R

  /** Whether an answer can still reach the client (nothing sent yet, the connection open). */
  abstract readonly answerable: boolean

  /** After `send`, while its outcome is pending: sends `outcome` instead (the deadline's 503); the pending one is dropped. */
  abstract preempt(outcome: Promise<Outcome>, log: Log): void

  /** The request's id (request-id.ts), made on first read. */
  get id(): string {
    return (this.#id ??= (this.lifecycle?.ids ?? GENERATED_IDS).idOf(this))
  }

  /** Adds a header to whatever reply is sent (reply-headers.ts); a later call for the same name replaces it. */
  setHeader(name: string, value: string): void {
    ;(this.addedHeaders ??= {})[addedHeaderName(name, value)] = value
  }

  /** The outcome as it goes out: with the added headers and the id header, then seen by the app's `onResponse` hooks. */
  protected finished(outcome: Outcome): Outcome {
    const lifecycle = this.lifecycle
    return lifecycle === undefined
      ? withHeaders(outcome, this.addedHeaders, undefined, this)
      : lifecycle.finish(outcome, this)
  }
}

/** An outcome that came too late: a streamed body is cancelled, so its source stops. */
export function drop(outcome: Outcome): void {
  if (outcome instanceof Response && outcome.body && !outcome.bodyUsed) outcome.body.cancel().catch(() => {})
}

/** The exchange registered on a request object (node's request or a web Request), if any. */
export function exchangeOf(carrier: object): Exchange | undefined {
  return (carrier as Carrier)[kExchange]
}

/** node's `httpVersion` as the semantic conventions write it: `1.1`, and `2` for `2.0`. */
export const protocolVersionOf = (httpVersion: string): string => (httpVersion === '2.0' ? '2' : httpVersion)

/** The query of a request target (`/p?a=1` → `a=1`); undefined without one. */
export function queryOf(target: string): string | undefined {
  const q = target.indexOf('?')
  return q === -1 || q === target.length - 1 ? undefined : target.slice(q + 1)
}

export const defaultPort = (scheme: string): number => (scheme === 'https' ? 443 : 80)

/**
 * The request body's size from its framing: `content-length`, or 0 when the request has neither
 * that nor `transfer-encoding` (HTTP/1.1 then has no body). A chunked body's size is not known
 * without reading it, which would take it from the app, so it is left undefined.
 */
export function bodySizeFromFraming(contentLength: string | null | undefined, chunked: boolean): number | undefined {
  if (contentLength != null) {
    const n = Number(contentLength)
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined
  }
  return chunked ? undefined : 0
}
