/**
 * The request object handlers, plugins and security callbacks receive.
 * Everything that costs something to compute (query, cookies, peer, host) is a lazy getter, so a
 * handler pays only for what it reads.
 */
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { deleteCookie, getQuery, parseCookies, setCookie } from 'h3'
import type { ExchangeRequest, QueryValue, RequestFacts, RequestScope, RouteInfo } from './contracts/request.ts'
import type { TopicMessage } from './contracts/topics.ts'
import { clientAddress, clientScheme } from './exchange/forwarded.ts'
import { formFields, hasMoreFields, tooManyQueryFields } from './form-fields.ts'
import type { Reply } from './replies.ts'
import { dropUnsafeFlatKeys } from './unsafe-keys.ts'

export type { QueryValue, RouteInfo } from './contracts/request.ts'

/**
 * The attributes of a cookie set with `req.setCookie` (h3's serialization options): `path`
 * (default `/`), `domain`, `maxAge` (seconds), `expires`, `httpOnly`, `secure`, `sameSite`,
 * `partitioned`, `priority`, and `encode` for the value (default `encodeURIComponent`).
 */
export type CookieOptions = NonNullable<Parameters<typeof setCookie>[3]>

/**
 * One request as handlers, plugins and security callbacks see it.
 *
 * Path parameters (`bindings`), query, headers, cookies, the decoded body (`json`, `params`), the
 * session and the security callback's `authData` (typed by `A`).
 */
export class VelaRequest<A = unknown> {
  /** Path parameters (`:id` → `bindings.id`), URL-decoded strings. */
  readonly bindings: Readonly<Record<string, string>>
  /** The rest of the path matched by a trailing `[...]`, URL-decoded (`''` when nothing follows). */
  readonly pathInfo: string | undefined
  readonly route: RouteInfo
  /** Decoded JSON body: set by the request plugin with `json`. */
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
  #reading: Promise<string> | undefined
  readonly #x: ExchangeRequest
  readonly #scope: RequestScope

  /** Made by the route's pipeline over the request's exchange (server/exchange/). */
  constructor(
    exchange: ExchangeRequest,
    route: RouteInfo,
    bindings: Readonly<Record<string, string>>,
    pathInfo: string | undefined,
    scope: RequestScope,
  ) {
    this.#x = exchange
    this.route = route
    this.bindings = bindings
    this.pathInfo = pathInfo
    this.#scope = scope
  }

  /**
   * The request's facts, the object stream handler observers were given for this request: an
   * observer that keeps per-request state on it finds it here (`setMetricsUserData` does).
   */
  get facts(): RequestFacts {
    return this.#x
  }

  /** The h3 event: an escape hatch to h3 utilities and the web `Request` (made on first use on node). */
  get event(): H3Event {
    return this.#x.event
  }
  /** The event if one was made: headers set through h3 utilities live on it. */
  get eventIfMade(): H3Event | undefined {
    return this.#x.eventIfMade
  }

  /** node's request when the app runs on node's listener; undefined in-process. */
  get nodeRequest(): IncomingMessage | undefined {
    return this.#x.nodeRequest
  }

  /** Decoded body (JSON object or form fields) when the request plugin read one; `{}` otherwise. */
  get params(): Record<string, unknown> {
    return (this.#params ??= {})
  }
  set params(value: Record<string, unknown>) {
    this.#params = value
  }
  /**
   * The request's id: the one a proxy listed in `server.trustProxy` sent (`x-request-id`, when
   * sane), else one generated for it. Every response carries it back in `x-request-id`, unless
   * the app set that header itself, and every log line of the request names it (`request_id=…`);
   * `server.requestId` renames the header or turns it off.
   *
   * @example
   * ```ts
   * export const create = async (req: VelaRequest) => {
   *   await queue.push({ job: 'thumbnail', requestId: req.id })
   *   return json({ accepted: true }, { status: 202 })
   * }
   * ```
   */
  get id(): string {
    return this.#x.id
  }

  /**
   * Adds a header to the reply this request gets, whoever makes it: the handler's, a plugin's
   * `stop`, an error page, a thrown `httpError`'s. It wins over a header of the same name in the
   * reply itself, and no framework default (`x-request-id`, `content-type`, security headers)
   * replaces it; a later call replaces an earlier one. Cheap on node's direct path (no web
   * `Response` is made, unlike headers set through `req.event`). A value a header cannot carry
   * throws, as do `content-length`, `transfer-encoding` and `set-cookie` (cookies go through
   * `req.setCookie`).
   *
   * @example
   * ```ts
   * // A pre-request plugin: every reply of its groups says which version served it.
   * preRequest(req) {
   *   req.setHeader('x-api-version', '2')
   *   return ok()
   * }
   * ```
   */
  setHeader(name: string, value: string): void {
    this.#x.setHeader(name, value)
  }

  /** Uppercase HTTP method. */
  get method(): string {
    return this.#x.method
  }
  /** The URL path as received (not decoded); escapes that need none and dot segments resolved as URLs do. */
  get path(): string {
    return this.#x.path
  }
  get url(): URL {
    return this.event.url
  }
  get headers(): Headers {
    return this.event.req.headers
  }
  /**
   * One request header by name, in any case (repeated values joined by `, `), read straight from
   * node's parsed headers when running on node: cheaper than `headers.get` on the hot path.
   */
  header(name: string): string | undefined {
    return this.#x.header(name)
  }
  /**
   * Query string values; a repeated key gives an array; `__proto__`, `constructor` and `prototype`
   * are dropped (unsafe-keys.ts). Reading it throws a 414 `HttpError` when the query string has
   * more than `server.maxFields` fields (default 1,000).
   */
  get query(): Readonly<Record<string, QueryValue>> {
    if (this.#query) return this.#query
    const event = this.event
    if (hasMoreFields(event.url.search, this.#scope.maxFields, 1)) throw tooManyQueryFields(this.#scope.maxFields)
    const query = getQuery(event) as Record<string, QueryValue>
    dropUnsafeFlatKeys(query)
    return (this.#query = query)
  }
  /** Route validation sets the validated query here (values coerced to the schema's types). */
  set query(value: Readonly<Record<string, unknown>>) {
    this.#query = value as Record<string, QueryValue>
  }
  /**
   * The cookies the request came with, by name (values decoded). Cookies set with `setCookie`
   * during the request are not in it: they are the reply's.
   *
   * @example
   * ```ts
   * export const index = (req: VelaRequest) => view({ theme: req.cookies.theme ?? 'light' })
   * ```
   */
  get cookies(): Readonly<Record<string, string>> {
    return (this.#cookies ??= parseCookies(this.event) as Record<string, string>)
  }

  /**
   * Sets a cookie on the reply this request gets, whoever makes it: the handler's (any reply
   * kind, a `Response` included), a post-request plugin's, an error page, a thrown `httpError`'s.
   * It is sent beside any `set-cookie` the reply has itself and those of other plugins (the
   * session's); setting the same name (and path and domain) again in the request replaces the
   * earlier value. Serialized by h3: `path` defaults to `/`; nothing else is added, so give
   * `httpOnly`, `secure` and `sameSite` for a cookie scripts must not read or other sites must not
   * send. A name or value a cookie cannot carry throws a TypeError (the handler's 500).
   *
   * @example
   * ```ts
   * export const setTheme = (req: VelaRequest) => {
   *   req.setCookie('theme', 'dark', { httpOnly: true, sameSite: 'lax', maxAge: 60 * 60 * 24 * 365 })
   *   return redirect('/settings', { status: 303 })
   * }
   * ```
   */
  setCookie(name: string, value: string, options?: CookieOptions): void {
    setCookie(this.event, name, value, options)
  }

  /**
   * Deletes a cookie: the reply sets it empty and expired. Give the `path` and `domain` it was set
   * with (the path defaults to `/`), or the browser keeps it.
   *
   * @example
   * ```ts
   * export const logout = (req: VelaRequest) => {
   *   req.deleteCookie('remember_me')
   *   return redirect('/login', { status: 303 })
   * }
   * ```
   */
  deleteCookie(name: string, options?: CookieOptions): void {
    deleteCookie(this.event, name, options)
  }
  /**
   * The client's address: the socket's, or behind a proxy listed in `server.trustProxy` the one it
   * forwarded (`X-Forwarded-For`). `req.facts.peer` is always the socket's.
   */
  get peer(): string {
    const proxies = this.#scope.proxies
    return (proxies ? clientAddress(this.#x, proxies) : this.#x.peer) ?? '127.0.0.1'
  }
  get host(): string {
    return this.#x.host
  }
  get port(): number {
    return this.#x.port
  }
  /** The socket's scheme, or from a proxy listed in `server.trustProxy` its `X-Forwarded-Proto`. */
  get scheme(): 'http' | 'https' {
    const proxies = this.#scope.proxies
    return proxies ? clientScheme(this.#x, proxies) : this.#x.scheme
  }

  /** Reads the whole body (once) under the app's size limit; a body over it is a 413. */
  readBody(): Promise<string> {
    if (this.body !== undefined) return Promise.resolve(this.body)
    // The reader sets `this.body` itself; a second call while reading shares the first read.
    return (this.#reading ??= this.#x.readBody(this.#scope.bodyLimit, this))
  }

  /**
   * Reads the body (as `readBody`) as an `application/x-www-form-urlencoded` form: a repeated
   * field gives an array; `__proto__`, `constructor` and `prototype` are dropped. More than
   * `server.maxFields` fields (default 1,000) is a 413, refused before any field is decoded.
   * The request plugin's `urlencoded` reads forms this way.
   *
   * @example
   * ```ts
   * export const upload = async (req: VelaRequest) => {
   *   const form = await req.readForm() // { title: 'x', tag: ['a', 'b'] }
   *   return json({ tags: [form.tag ?? []].flat() })
   * }
   * ```
   */
  readForm(): Promise<Record<string, string | string[]>> {
    return this.readBody().then((text) => formFields(text, this.#scope.maxFields))
  }

  /**
   * Sends `message` to every WebSocket subscribed to `topic` (`peer.subscribe(topic)`), on this
   * instance and, with `server.websocket.pubsub`, on every other. Never throws; at most once.
   */
  publish(topic: string, message: TopicMessage): void {
    this.#scope.publish(topic, message)
  }
}
