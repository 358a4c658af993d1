/**
 * The direct node path: an exchange over node's request and response, which is where Vela's
 * speed comes from. Nothing web-shaped is made per request unless something asks for it: the h3
 * event (over srvx's web `Request` view of node's request) on first use of `req.event`,
 * `req.headers`, `req.url`, the query or cookies; the path comes straight from the request target
 * unless it needs URL rules (percent-escapes, dot segments, characters a URL escapes, an absolute
 * or `*` target), in which case it is read from the event's URL exactly as the web path reads
 * it; and an encoded reply, or a srvx fast response whose body is a string or bytes, goes out with
 * one `end(body)` (node sends the head and the body in one write), while streamed bodies are
 * written chunk by chunk as the client takes them (send-body.ts). A write that backs up arms the
 * send timeout (send-timeout.ts); one that does not costs no timer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Readable } from 'node:stream'
import { H3Event } from 'h3'
import { NodeRequest } from 'srvx/node'
import type { NodeHandler } from '../contracts/handlers.ts'
import type { BodySink } from '../contracts/request.ts'
import { readNodeBody } from '../request-body.ts'
import type { Outcome } from '../respond.ts'
import { isEncoded } from '../respond.ts'
import { logKey } from '../app/coalesce-log.ts'
import { logRequest } from '../app/request-log.ts'
import { statusText } from '../errors/error-page.ts'
import { isCodedInfrastructure } from '../errors/vela-error.ts'
import type { Log } from './exchange.ts'
import { Exchange, bodySizeFromFraming, defaultPort, drop, exchangeOf, protocolVersionOf, queryOf } from './exchange.ts'
import { isMalformedURL, toNodeShaped } from './internals.ts'
import type { NodeShaped } from './internals.ts'
import type { Lifecycle } from './lifecycle.ts'
import { closeWithConnection } from './queued-response.ts'
import { mergedHeaders } from './reply-headers.ts'
import { CLIENT_CLOSED } from './response-end.ts'
import type { Serve } from './route.ts'
import { sendStreamed } from './send-body.ts'
import { watchDrain } from './send-timeout.ts'

// What makes a URL parser change an origin-form path: escapes, `/.` (dot segments), `\`, and
// characters it percent-encodes (srvx's FastURL tests the same set before it parses). The ASCII
// ones are marked here; everything from 0x7f up counts too.
const URL_RULE_CHARS = new Uint8Array(128)
for (let c = 0; c <= 0x20; c++) URL_RULE_CHARS[c] = 1
for (const ch of '%\\^#"<>{}`') URL_RULE_CHARS[ch.charCodeAt(0)] = 1

/**
 * The path of an origin-form request target (`/a/b?q` → `/a/b`) when a URL parser would leave it
 * as it is; undefined when it would not (see `URL_RULE_CHARS`, or a `/.`) or the target is not
 * origin-form. One pass that stops at the `?`: under callgrind it cost a request about 120
 * instructions less than `indexOf('?')` and a regular expression over the path.
 */
export function plainPath(target: string): string | undefined {
  if (target.charCodeAt(0) !== 47) return undefined
  let previous = 47
  for (let i = 1; i < target.length; i++) {
    const c = target.charCodeAt(i)
    if (c === 63) return target.slice(0, i)
    if (c >= 0x7f || URL_RULE_CHARS[c] === 1 || (c === 46 && previous === 47)) return undefined
    previous = c
  }
  return target
}

/**
 * `app.handleNode` when no stream handler observes requests: from node's listener to routing in
 * one call. `reuse`: take the exchange a low-level stream handler already made (wrap-forms.ts);
 * `lifecycle`: the app's request ids and response step (lifecycle.ts).
 */
export function nodeEntry(serve: Serve, log: Log, reuse: boolean, lifecycle: Lifecycle): NodeHandler {
  return function handleNode(req, res) {
    const x = reuse ? NodeExchange.of(req, res) : new NodeExchange(req, res)
    x.lifecycle = lifecycle
    x.send(serve(x), log)
  }
}

export class NodeExchange extends Exchange<void> {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly path: string
  readonly escaped: boolean
  readonly malformed: boolean
  readonly targetLength: number
  #event: H3Event | undefined = undefined
  #authority: { host: string; port: number } | undefined = undefined
  /**
   * The body bytes this exchange handed to node, counted only once something watches (`whenSent`):
   * an encoded reply's length, or a streamed body's chunks. Counting where Vela writes, rather than
   * by wrapping node's `write`/`end` per request, keeps the response object's shape and costs a
   * request nothing when no stream handler reports on it.
   */
  #bodyBytes = -1

  /** The exchange node's request already has (made by a low-level stream handler), or a new one. */
  static of(req: IncomingMessage, res: ServerResponse): NodeExchange {
    return (exchangeOf(req) as NodeExchange | undefined) ?? new NodeExchange(req, res)
  }

  constructor(req: IncomingMessage, res: ServerResponse) {
    super(req)
    this.req = req
    this.res = res
    // Queued behind another request on its connection (pipelining): closed with the connection.
    if (!res.socket) closeWithConnection(req, res)
    const target = req.url ?? '/'
    const path = plainPath(target)
    if (path !== undefined) {
      this.path = path
      this.escaped = false
      this.malformed = false
      this.targetLength = target.length
    } else {
      const event = this.event
      const url = event.url
      this.path = url.pathname
      this.escaped = this.path.includes('%')
      this.malformed = isMalformedURL(event)
      this.targetLength = url.pathname.length + url.search.length
    }
  }

  get kind(): 'http' {
    return 'http'
  }
  get method(): string {
    return this.req.method!
  }
  header(name: string): string | undefined {
    // Node's names are lowercase; any other spelling is looked up again, as web `Headers` would.
    const value = this.req.headers[name] ?? this.req.headers[name.toLowerCase()]
    return Array.isArray(value) ? value.join(', ') : value
  }
  headerNames(): string[] {
    return Object.keys(this.req.headers)
  }
  get scheme(): 'http' | 'https' {
    return (this.req.socket as TLSSocket).encrypted ? 'https' : 'http'
  }
  get host(): string {
    return (this.#authority ??= authorityOf(this.req, this.scheme)).host
  }
  get port(): number {
    return (this.#authority ??= authorityOf(this.req, this.scheme)).port
  }
  get query(): string | undefined {
    return queryOf(this.req.url ?? '')
  }
  get peer(): string | undefined {
    return this.req.socket.remoteAddress
  }
  get peerPort(): number | undefined {
    return this.req.socket.remotePort
  }
  get protocolVersion(): string {
    return protocolVersionOf(this.req.httpVersion)
  }
  get userAgent(): string | undefined {
    return this.req.headers['user-agent']
  }
  get requestBodySize(): number | undefined {
    const headers = this.req.headers
    return bodySizeFromFraming(headers['content-length'], headers['transfer-encoding'] !== undefined)
  }
  get event(): H3Event {
    return (this.#event ??= new H3Event(new NodeRequest({ req: this.req, res: this.res })))
  }
  get eventIfMade(): H3Event | undefined {
    return this.#event
  }
  get nodeRequest(): IncomingMessage {
    return this.req
  }
  readBody(limit: number, sink: BodySink): Promise<string> {
    return readNodeBody(this.req, limit, sink)
  }

  /**
   * On node's 'close' (after the response was sent, or when the client went away first): the
   * status (`CLIENT_CLOSED` when the head never went out) and the body bytes written, 0 for HEAD,
   * 204 and 304.
   */
  whenSent(done: (status: number, bytes: number) => void): void {
    this.#bodyBytes = 0
    const res = this.res
    res.on('close', () => {
      if (!res.headersSent) return done(CLIENT_CLOSED, 0)
      const status = res.statusCode
      done(status, status === 204 || status === 304 || this.req.method === 'HEAD' ? 0 : this.#bodyBytes)
    })
  }

  /** Counts `bytes` more of the body sent, when something watches (`whenSent`). */
  countBody(bytes: number): void {
    if (this.#bodyBytes !== -1) this.#bodyBytes += bytes
  }

  send(outcome: Outcome | Promise<Outcome>, log: Log): void {
    if (this.sent) return
    this.sent = true
    if (!(outcome instanceof Promise)) return this.write(outcome, log)
    outcome.then(
      (o) => (this.wanted() ? this.write(o, log) : drop(o)),
      (err: unknown) => this.wanted() && this.failed(err, log),
    )
  }

  get answerable(): boolean {
    return !this.res.headersSent && !this.res.destroyed
  }

  preempt(outcome: Promise<Outcome>, log: Log): void {
    outcome.then(
      (o) => (this.answerable ? this.write(o, log) : drop(o)),
      (err: unknown) => this.failed(err, log),
    )
  }

  /**
   * Whether a pending outcome that just arrived is still to be written: not after the deadline's
   * 503, nor after the listener answered a broken or slow body (client-errors.ts), nor to a
   * client that left.
   */
  private wanted(): boolean {
    const deadline = this.deadline
    if (deadline !== undefined && !deadline.settle()) return false
    return this.answerable
  }

  /** An encoded reply goes out with one `end(body)`; a Response as `writeResponse` can. */
  private write(sent: Outcome, log: Log): void {
    const res = this.res
    try {
      const lifecycle = this.lifecycle
      // No onResponse hooks, or one that only sets defaults: an encoded reply only needs its
      // headers merged.
      if (lifecycle?.headersOnly === true && isEncoded(sent)) {
        const added = this.addedHeaders
        const idHeader = lifecycle.ids.header
        const defaults = lifecycle.defaults?.(this)
        const headers =
          added === undefined && idHeader === undefined && defaults === undefined
            ? sent.headers
            : mergedHeaders(sent.headers, added, idHeader, this, defaults)
        res.writeHead(sent.status, headers)
        return this.end(res, sent.body)
      }
      const outcome = this.finished(sent)
      if (outcome instanceof Response) {
        const sending = writeResponse(
          res,
          outcome,
          this.#bodyBytes === -1 ? undefined : (bytes) => this.countBody(bytes),
        )
        if (sending) sending.catch((err: unknown) => this.failed(err, log))
      } else {
        res.writeHead(outcome.status, outcome.headers)
        this.end(res, outcome.body)
      }
    } catch (err) {
      this.failed(err, log)
    }
  }

  /** Ends the response with an encoded reply's body, counted when something watches. */
  private end(res: ServerResponse, body: string | Uint8Array | null): void {
    res.end(body ?? undefined)
    if (this.#bodyBytes !== -1 && body != null) this.#bodyBytes += byteLength(body)
    watchDrain(res.socket)
  }

  /**
   * The response could not be written. Before its head, a coded "try again later" error (a file
   * that cannot be opened for want of descriptors: server/static/file-body.ts) is answered as the
   * pipeline answers it (a logged 503 with `Retry-After` and its code); anything else (the client
   * went away, a body that failed midway) is logged and the connection closed: nothing sensible
   * can follow on it.
   */
  private failed(err: unknown, log: Log): void {
    const res = this.res
    if (isCodedInfrastructure(err) && !res.headersSent && !res.destroyed) {
      logRequest(
        log,
        this,
        `${err.status} on ${this.req.method} ${this.req.url}: ${err.message}`,
        undefined,
        logKey(`${err.status} before the head`, err),
      )
      const body = JSON.stringify({ error: statusText(err.status), code: err.code })
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
      }
      if (err.status === 503) headers['retry-after'] = '1'
      // Through `write`, so the app's onResponse hooks see this reply as they see every other.
      return this.write({ status: err.status, headers, body }, log)
    }
    logRequest(log, this, `failed to answer ${this.req.method} ${this.req.url}`, err, logKey('failed to answer', err))
    res.destroy()
  }
}

/**
 * Host and port of a node request, as the URL srvx builds for the web path gives them: an
 * absolute-form target (`http://host/path`) on its own, ignoring `Host` as RFC 9112 section 3.2.2 asks;
 * else the `Host` header; else the socket's local address.
 */
function authorityOf(req: IncomingMessage, scheme: string): { host: string; port: number } {
  const target = req.url ?? '/'
  if (target.charCodeAt(0) !== 47 && URL.canParse(target)) {
    const url = new URL(target)
    if (url.host)
      return { host: url.hostname, port: url.port ? Number(url.port) : defaultPort(url.protocol.slice(0, -1)) }
  }
  const header = req.headers.host
  if (!header)
    return { host: req.socket.localAddress ?? 'localhost', port: req.socket.localPort ?? defaultPort(scheme) }
  // `[::1]:8080` keeps its brackets, as URL.hostname does.
  const colon = header.lastIndexOf(':')
  if (colon === -1 || colon < header.lastIndexOf(']')) return { host: header.toLowerCase(), port: defaultPort(scheme) }
  const port = Number(header.slice(colon + 1))
  return {
    host: header.slice(0, colon).toLowerCase(),
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : defaultPort(scheme),
  }
}

/** A string or bytes body in one `end()`; a streamed one as the client takes it. `count`: told the body bytes written. */
function writeResponse(
  res: ServerResponse,
  response: Response,
  count: ((bytes: number) => void) | undefined,
): void | Promise<void> {
  const out = toNodeShaped(response) ?? webShaped(response)
  const body = out.body
  if (body == null || typeof body === 'string' || body instanceof Uint8Array) {
    res.writeHead(out.status, out.headers)
    res.end(body ?? undefined)
    if (count !== undefined && body != null) count(byteLength(body))
    watchDrain(res.socket)
    return
  }
  return sendStreamed(res, out.status, out.headers, body as ReadableStream | Readable, count)
}

const byteLength = (body: string | Uint8Array): number =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength

/** A response other than srvx's fast one, in node's terms. */
function webShaped(response: Response): NodeShaped {
  const headers: string[] = []
  for (const [name, value] of response.headers) headers.push(name, value)
  return { status: response.status, headers, body: response.body }
}
