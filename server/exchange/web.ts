/**
 * Exchanges over a web `Request`: `app.fetch` (in-process requests, `inject`, runtimes other than
 * node) and, through `RequestExchange`, the WebSocket upgrade (server/websocket/upgrade.ts). The h3
 * event is made at once: its URL is where the path, host and port come from.
 */
import type { IncomingMessage } from 'node:http'
import { H3Event } from 'h3'
import type { FetchHandler } from '../contracts/handlers.ts'
import type { BodySink } from '../contracts/request.ts'
import { nodeRequestOf, readEventBody } from '../request-body.ts'
import type { Outcome } from '../respond.ts'
import { asResponse } from '../respond.ts'
import type { Deadline, Log } from './exchange.ts'
import { Exchange, bodySizeFromFraming, defaultPort, drop, exchangeOf, protocolVersionOf } from './exchange.ts'
import { isMalformedURL } from './internals.ts'
import type { Lifecycle } from './lifecycle.ts'
import { whenResponseEnds } from './response-end.ts'
import type { Serve } from './route.ts'

/** The request's facts and body from a web `Request`; what is sent back is the subclass's. */
export abstract class RequestExchange<R> extends Exchange<R> {
  readonly request: Request
  readonly event: H3Event
  readonly path: string
  readonly escaped: boolean
  readonly malformed: boolean
  readonly targetLength: number
  #preempt: ((outcome: Promise<Outcome>) => void) | undefined = undefined

  constructor(request: Request) {
    super(request)
    this.request = request
    const event = (this.event = new H3Event(request))
    const url = event.url
    this.path = url.pathname
    this.escaped = this.path.includes('%')
    this.malformed = isMalformedURL(event)
    this.targetLength = url.pathname.length + url.search.length
  }

  get method(): string {
    return this.request.method
  }
  /** Read from node's parsed headers when a node request is behind the web one: cheaper than `headers.get`. */
  header(name: string): string | undefined {
    const node = this.nodeRequest
    if (!node) return this.request.headers.get(name) ?? undefined
    const value = node.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  headerNames(): string[] {
    return [...this.request.headers.keys()]
  }
  get scheme(): 'http' | 'https' {
    return this.event.url.protocol === 'https:' ? 'https' : 'http'
  }
  get host(): string {
    return this.event.url.hostname
  }
  get port(): number {
    const url = this.event.url
    return url.port ? Number(url.port) : defaultPort(this.scheme)
  }
  get query(): string | undefined {
    const search = this.event.url.search
    return search.length > 1 ? search.slice(1) : undefined
  }
  get peer(): string | undefined {
    return (this.request as Request & { ip?: string }).ip
  }
  get peerPort(): number | undefined {
    return this.nodeRequest?.socket.remotePort
  }
  get protocolVersion(): string | undefined {
    const node = this.nodeRequest
    return node && protocolVersionOf(node.httpVersion)
  }
  get userAgent(): string | undefined {
    return this.header('user-agent')
  }
  get requestBodySize(): number | undefined {
    return bodySizeFromFraming(this.header('content-length'), this.header('transfer-encoding') !== undefined)
  }
  get eventIfMade(): H3Event {
    return this.event
  }
  get nodeRequest(): IncomingMessage | undefined {
    return nodeRequestOf(this.event)
  }
  readBody(limit: number, sink: BodySink): Promise<string> {
    return readEventBody(this.event, limit, sink)
  }

  send(outcome: Outcome | Promise<Outcome>, log: Log): R {
    if (this.sent) return this.result!
    this.sent = true
    const deadline = this.deadline
    return (this.result = this.deliver(
      deadline && outcome instanceof Promise ? this.#underDeadline(outcome, deadline) : outcome,
      log,
    ))
  }

  /** The caller is waiting for what `send` gave. */
  get answerable(): boolean {
    return true
  }

  preempt(outcome: Promise<Outcome>): void {
    this.#preempt?.(outcome)
  }

  /** The pending outcome, or what `preempt` gives if that comes first. */
  #underDeadline(pending: Promise<Outcome>, deadline: Deadline): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.#preempt = resolve
      pending.then(
        (o) => (deadline.settle() ? resolve(o) : drop(o)),
        (err: unknown) => deadline.settle() && reject(err),
      )
    })
  }

  protected abstract deliver(outcome: Outcome | Promise<Outcome>, log: Log): R

  /** What `whenSent` was given: called once the caller has the response (or the decision). */
  protected sentCallback: ((status: number, bytes: number) => void) | undefined = undefined

  whenSent(done: (status: number, bytes: number) => void): void {
    this.sentCallback = done
  }
}

/** `app.fetch` when no stream handler observes requests (`reuse` and `lifecycle` as for `nodeEntry`). */
export function webEntry(serve: Serve, log: Log, reuse: boolean, lifecycle: Lifecycle): FetchHandler {
  return function fetch(request) {
    const x = reuse ? WebExchange.of(request) : new WebExchange(request)
    x.lifecycle = lifecycle
    return x.send(serve(x), log)
  }
}

/** `app.fetch`: the outcome becomes the `Response` the caller gets. */
export class WebExchange extends RequestExchange<Promise<Response>> {
  static of(request: Request): WebExchange {
    return (exchangeOf(request) as WebExchange | undefined) ?? new WebExchange(request)
  }

  get kind(): 'http' {
    return 'http'
  }

  protected deliver(outcome: Outcome | Promise<Outcome>, _log: Log): Promise<Response> {
    const response =
      outcome instanceof Promise
        ? outcome.then((o) => asResponse(this.finished(o)))
        : Promise.resolve(asResponse(this.finished(outcome)))
    const done = this.sentCallback
    if (!done) return response
    return response.then((res) => whenResponseEnds(this.request, res, done))
  }
}
