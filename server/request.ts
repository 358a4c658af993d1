/**
 * The request object handlers, plugins and security callbacks receive (the spec's request map).
 * Everything that costs something to compute (query, cookies, peer, host) is a lazy getter, so a
 * handler pays only for what it reads.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { H3Event } from 'h3'
import { getQuery, parseCookies } from 'h3'
import { NodeRequest } from 'srvx/node'
import type { Reply } from './replies.ts'
import { nodeRequestOf, readEventBody, readNodeBody } from './request-body.ts'

/**
 * A request that came straight from node's listener (the fast path of `app.handleNode`): the h3
 * event, with its web `Request` and parsed URL, is only made if something asks for it.
 */
export interface NodeOrigin {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  /** The URL path, already checked (no percent-escapes on this path). */
  readonly path: string
}

/** Where the request was routed: feeds listings, spans, audit lines and default views. */
export interface RouteInfo {
  /** The route's full path pattern, prefix included (`/api/products/:id`). */
  readonly path: string
  readonly prefix: string
  readonly controller: string
  readonly action: string
}

export type QueryValue = string | string[]

export class VelaRequest<A = unknown> {
  /** Path parameters (`:id` → `bindings.id`), URL-decoded strings. */
  readonly bindings: Readonly<Record<string, string>>
  /** The rest of the path matched by a trailing `[...]`, URL-decoded (`''` when nothing follows). */
  readonly pathInfo: string | undefined
  readonly route: RouteInfo
  /** Decoded JSON body: set by the request plugin with `decodeJsonBody`. */
  json: unknown = undefined
  /** Raw body text, when something read it. */
  body: string | undefined = undefined
  /** Set from the group's security callback result. */
  authData: A = undefined as A
  /** Cookie session data (session plugin). */
  session: Record<string, unknown> | undefined = undefined
  /** This session's CSRF token (csrf plugin): put it in forms as `_csrf_token` or send it as `x-csrf-token`. */
  csrfToken: string | undefined = undefined
  /** During post-request plugins: the reply about to be sent. Replace it to change the response. */
  reply: Reply | Response | undefined = undefined

  #params: Record<string, unknown> | undefined
  #query: Record<string, QueryValue> | undefined
  #cookies: Record<string, string> | undefined
  #event: H3Event | undefined
  #reading: Promise<string> | undefined
  readonly #node: NodeOrigin | undefined
  readonly #bodyLimit: number

  constructor(
    origin: H3Event | NodeOrigin,
    route: RouteInfo,
    bindings: Readonly<Record<string, string>>,
    pathInfo: string | undefined,
    bodyLimit: number,
  ) {
    if (origin instanceof H3Event) this.#event = origin
    else this.#node = origin
    this.route = route
    this.bindings = bindings
    this.pathInfo = pathInfo
    this.#bodyLimit = bodyLimit
  }

  /** The h3 event: an escape hatch to h3 utilities and the web `Request` (made on first use). */
  get event(): H3Event {
    return (this.#event ??= new H3Event(new NodeRequest({ req: this.#node!.req, res: this.#node!.res })))
  }
  /** The event if one was made: headers set through h3 utilities live on it. */
  get eventIfMade(): H3Event | undefined {
    return this.#event
  }

  /** node's request when the app runs on node's listener (either path); undefined in-process. */
  get nodeRequest(): IncomingMessage | undefined {
    return this.#node?.req ?? nodeRequestOf(this.#event!)
  }

  /** Decoded body (JSON object or form fields) when the request plugin read one; `{}` otherwise. */
  get params(): Record<string, unknown> {
    return (this.#params ??= {})
  }
  set params(value: Record<string, unknown>) {
    this.#params = value
  }
  /** Uppercase HTTP method. */
  get method(): string {
    return this.#node ? this.#node.req.method! : this.#event!.req.method
  }
  /** The URL path as received (not decoded). */
  get path(): string {
    return this.#node ? this.#node.path : this.#event!.url.pathname
  }
  get url(): URL {
    return this.event.url
  }
  get headers(): Headers {
    return this.event.req.headers
  }
  /**
   * One request header by lowercase name (repeated values joined by `, `), read straight from
   * node's parsed headers when running on node: cheaper than `headers.get` on the hot path.
   */
  header(name: string): string | undefined {
    const node = this.#node?.req ?? nodeRequestOf(this.#event!)
    if (!node) return this.#event!.req.headers.get(name) ?? undefined
    const value = node.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  /** Query string values; a repeated key gives an array. */
  get query(): Readonly<Record<string, QueryValue>> {
    return (this.#query ??= getQuery(this.event) as Record<string, QueryValue>)
  }
  get cookies(): Readonly<Record<string, string>> {
    return (this.#cookies ??= parseCookies(this.event) as Record<string, string>)
  }
  /** The client's address as seen on the socket (no proxy headers trusted). */
  get peer(): string {
    if (this.#node) return this.#node.req.socket.remoteAddress ?? '127.0.0.1'
    const req = this.#event!.req as Request & { ip?: string }
    return req.ip ?? '127.0.0.1'
  }
  get host(): string {
    return this.event.url.hostname
  }
  get port(): number {
    const url = this.event.url
    return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
  }
  get scheme(): 'http' | 'https' {
    return this.event.url.protocol === 'https:' ? 'https' : 'http'
  }

  /** Reads the whole body (once) under the app's size limit; a body over it is a 413. */
  readBody(): Promise<string> {
    if (this.body !== undefined) return Promise.resolve(this.body)
    // The reader sets `this.body` itself; a second call while reading shares the first read.
    return (this.#reading ??= this.#node ? readNodeBody(this.#node.req, this.#bodyLimit, this) : readEventBody(this.event, this.#bodyLimit, this))
  }
}
