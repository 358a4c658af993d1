/**
 * Handler deadlines: a route whose pipeline (plugins, security, handler, post plugins) has not
 * produced its answer within `handlerTimeout` ms (the route's option, else `server.handlerTimeout`,
 * which defaults to `server.requestTimeout`; 0 turns it off) is answered 503 with the group's page
 * for that status, logged once with the route, and its own answer is dropped when it comes. Only
 * the answer is timed: a streamed body, once it has begun, is not. A route still reading a body
 * the client has not finished sending is late by the client's fault: that is a 408 with
 * `Connection: close`, not logged, as node's `requestTimeout` answers it (client-errors.ts).
 *
 * Cost: nothing for a route that answers synchronously. For one whose outcome is a pending
 * promise: one small entry and its link into a list, unlinked when the outcome arrives; no clock
 * read (one costs about as much as the rest together). Each distinct timeout has its own list, in
 * arrival order, and its own timer, which ticks every `timeout / 8` ms while the list holds
 * anything: an entry is stamped with the tick count as it arrives and expires on the 9th tick
 * after, so a 503 comes between 1 and 1.125 times the timeout after the request started (a timer
 * never fires early). The timer is unref'd: pending deadlines do not keep the process alive.
 */
import { logRequest } from '../app/request-log.ts'
import type { CompiledRoute } from '../contracts/routes.ts'
import { REQUEST_TIMEOUT } from '../errors/client-faults.ts'
import { httpError } from '../errors/http-error.ts'
import type { Deadline, Exchange } from '../exchange/exchange.ts'
import { failBody } from '../request-body.ts'
import type { VelaRequest } from '../request.ts'
import type { FailureContext } from './failure.ts'
import { statusPage } from './failure.ts'

/** The deadlines of one app's routes. */
export class HandlerDeadlines {
  readonly #lists = new Map<number, DeadlineList>()

  constructor(
    readonly ctx: FailureContext,
    /** `server.handlerTimeout`: for routes that set none. */
    readonly defaultMs: number,
  ) {}

  /** The deadline list of a route, or undefined when it has no deadline (0, or a WebSocket route). */
  forRoute(route: CompiledRoute): DeadlineList | undefined {
    const ms = route.options.handlerTimeout ?? this.defaultMs
    if (!ms || route.kind === 'ws') return undefined
    let list = this.#lists.get(ms)
    if (!list) this.#lists.set(ms, (list = new DeadlineList(this.ctx, ms)))
    return list
  }
}

/** Ticks per timeout: an expiry is at most this fraction of the timeout late (1/8). */
const TICKS = 8

/** The pending requests under one timeout, oldest first. */
export class DeadlineList {
  head: PendingAnswer | undefined = undefined
  tail: PendingAnswer | undefined = undefined
  #tick = 0
  #timer: NodeJS.Timeout | undefined = undefined

  constructor(
    readonly ctx: FailureContext,
    readonly ms: number,
  ) {}

  /** Puts the pending outcome of `x` under this deadline. */
  track(x: Exchange, req: VelaRequest, route: CompiledRoute): PendingAnswer {
    const entry = new PendingAnswer(this, this.#tick, x, req, route)
    const tail = this.tail
    if (tail === undefined) {
      this.head = entry
      // The timer stops when it finds the list empty (or is still armed from before).
      this.#timer ??= setTimeout(this.#onTick, this.ms / TICKS).unref()
    } else {
      tail.next = entry
      entry.prev = tail
    }
    this.tail = entry
    return entry
  }

  unlink(e: PendingAnswer): PendingAnswer {
    const { prev, next } = e
    if (prev === undefined) this.head = next
    else prev.next = next
    if (next === undefined) this.tail = prev
    else next.prev = prev
    e.prev = e.next = undefined
    return e
  }

  /** Answers every request that has waited `TICKS + 1` ticks; ticks on while any are left. */
  readonly #onTick = (): void => {
    const tick = ++this.#tick
    for (let e = this.head; e !== undefined && tick - e.tick > TICKS; e = this.head)
      expire(this.ctx, this.unlink(e), this.ms)
    this.#timer = this.head === undefined ? undefined : setTimeout(this.#onTick, this.ms / TICKS).unref()
  }
}

export class PendingAnswer implements Deadline {
  prev: PendingAnswer | undefined = undefined
  next: PendingAnswer | undefined = undefined
  expired = false

  constructor(
    readonly list: DeadlineList,
    /** The list's tick count when the request started waiting. */
    readonly tick: number,
    readonly x: Exchange,
    readonly req: VelaRequest,
    readonly route: CompiledRoute,
  ) {}

  settle(): boolean {
    if (this.expired) return false
    this.list.unlink(this)
    return true
  }
}

/** Answers 503 in place of the pending outcome, which is dropped when it arrives. */
function expire(ctx: FailureContext, e: PendingAnswer, ms: number): void {
  e.expired = true
  const { x, req, route } = e
  const where = `${req.method} ${req.path} (route ${route.path}, ${route.info.controller}.${route.info.action})`
  if (!x.answerable) {
    // The client left, or the listener answered a broken body: only the hung route is news.
    logRequest(
      ctx.log,
      req.facts,
      `${where}: no answer within ${ms} ms (handlerTimeout); the client had gone or been answered by the listener`,
      undefined,
      `gone ${req.method} ${route.path} handlerTimeout`,
    )
    return
  }
  const node = x.nodeRequest
  if (node !== undefined && node.readableFlowing === true && !node.complete) {
    failBody(node, httpError(408, REQUEST_TIMEOUT))
    x.preempt(statusPage(ctx, 408, req, route.group, REQUEST_TIMEOUT, undefined, { connection: 'close' }), ctx.log)
    return
  }
  logRequest(
    ctx.log,
    req.facts,
    `503 on ${where}: no answer within ${ms} ms (handlerTimeout); a late answer will be dropped`,
    undefined,
    `503 ${req.method} ${route.path} handlerTimeout`,
  )
  x.preempt(statusPage(ctx, 503, req, route.group, `Service Unavailable: no answer within ${ms} ms`), ctx.log)
}
