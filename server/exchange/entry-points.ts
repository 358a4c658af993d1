/**
 * The app's entry points, `handleNode` (node's listener), `fetch` (a web Request) and `upgrade`
 * (a WebSocket handshake): each makes its exchange, then serves and sends it under the observers
 * of stream handlers (server/contracts/observer.ts), called the same way on every path. An app
 * without observers uses each exchange's own entry point (`nodeEntry` in node.ts, `webEntry` in
 * web.ts, `upgradeEntry` in server/websocket/upgrade.ts): the listener calls routing directly.
 *
 * Per request: each observer, outermost first, is given the exchange as the request's facts,
 * inside the `run` of the ones before it; the innermost step serves and sends the response; once
 * it has been sent (node: written or abandoned; web: its body read; upgrade: decided, or the
 * refusal written), every watch's `end` is called, innermost first. An observer that throws, or a
 * `run` that returns without calling `next`, costs that request the 500 page, never the server;
 * an `end` that throws is logged.
 */
import type { FetchHandler, NodeHandler, UpgradeHandler } from '../contracts/handlers.ts'
import type { RequestObserver, RequestOutcome, RequestWatch } from '../contracts/observer.ts'
import type { RequestFacts } from '../contracts/request.ts'
import { logRequest } from '../app/request-log.ts'
import type { Outcome } from '../respond.ts'
import { UpgradeExchange, upgradeEntry } from '../websocket/upgrade.ts'
import type { Exchange, Log } from './exchange.ts'
import type { Lifecycle } from './lifecycle.ts'
import { NodeExchange, nodeEntry } from './node.ts'
import type { Serve } from './route.ts'
import { WebExchange, webEntry } from './web.ts'

export interface NamedObserver {
  readonly name: string
  readonly observer: RequestObserver
}

/** The answer to a request whose stream handler failed: the app's 500 page. */
export type StreamFailure = (error: unknown, x: Exchange) => Outcome

export interface EntryPoints {
  readonly handleNode: NodeHandler
  readonly fetch: FetchHandler
  readonly upgrade: UpgradeHandler
}

/**
 * The entry points over `serve` (HTTP routing) and `serveUpgrade` (WebSocket routing). `reuse`:
 * take the exchange a low-level stream handler already made for the request (wrap-forms.ts); the
 * app then has no observers of its own (they run inside the low-level forms).
 */
export function entryPoints(opts: {
  serve: Serve
  serveUpgrade: Serve<UpgradeExchange>
  observers: readonly NamedObserver[]
  failed: StreamFailure
  log: Log
  reuse: boolean
  /** The app's request ids and response step (lifecycle.ts): every exchange runs it on what it sends. */
  lifecycle: Lifecycle
}): EntryPoints {
  const { serve, serveUpgrade, observers, failed, log, reuse, lifecycle } = opts
  // Without observers the listener calls the exchange's own entry point: one call to routing.
  if (observers.length === 0) {
    return {
      handleNode: nodeEntry(serve, log, reuse, lifecycle),
      fetch: webEntry(serve, log, reuse, lifecycle),
      upgrade: upgradeEntry(serveUpgrade, log, reuse, lifecycle),
    }
  }
  const onNode = withObservers(observers, (x: NodeExchange) => x.send(serve(x), log), failed, log)
  const onWeb = withObservers(observers, (x: WebExchange) => x.send(serve(x), log), failed, log)
  const onUpgrade = withObservers(observers, (x: UpgradeExchange) => x.send(serveUpgrade(x), log), failed, log)
  // Set before the observers run: they read the request's id, and a stream handler's failure is
  // answered through the response step too.
  const hooked = <X extends Exchange>(x: X): X => {
    x.lifecycle = lifecycle
    return x
  }
  return {
    handleNode: (req, res) => onNode(hooked(new NodeExchange(req, res))),
    fetch: (request) => onWeb(hooked(new WebExchange(request))),
    upgrade: (request) => onUpgrade(hooked(new UpgradeExchange(request))),
  }
}

/** `respond(x)` serves and sends; with observers it runs inside them. Gives what the exchange's `send` gave. */
function withObservers<X extends Exchange<R>, R>(
  observers: readonly NamedObserver[],
  respond: (x: X) => R,
  failed: StreamFailure,
  log: Log,
): (x: X) => R {
  if (observers.length === 1) return withObserver(observers[0]!, respond, failed, log)
  const n = observers.length
  return function observed(x) {
    // The watches of this request, and which observer each came from (for messages).
    const watches: RequestWatch[] = []
    const from: number[] = []
    x.whenSent((status, bytes) => {
      const outcome = outcomeOf(x, status, bytes)
      for (let i = watches.length - 1; i >= 0; i--) endWatch(watches[i]!, outcome, observers[from[i]!]!.name, log, x)
    })
    const step = (start: number): void => {
      for (let i = start; i < n; i++) {
        const watch = observers[i]!.observer(x)
        if (!watch) continue
        watches.push(watch)
        from.push(i)
        if (watch.run) return watch.run(() => step(i + 1))
      }
      // A `run` calling `next` late, after the 500 page went out, must not run the route too.
      if (!x.sent) respond(x)
    }
    try {
      step(0)
      if (!x.sent)
        throw new Error(
          `a stream handler's run() returned without calling next (${from.map((i) => observers[i]!.name).join(', ')})`,
        )
    } catch (err) {
      streamHandlerFailed(x, err, failed, log)
    }
    return x.result!
  }
}

/**
 * `withObservers` for an app with one observer (telemetry's, most often), the same steps without
 * the lists of watches: a request then allocates no more than its watch and the closures it needs.
 */
function withObserver<X extends Exchange<R>, R>(
  { name, observer }: NamedObserver,
  respond: (x: X) => R,
  failed: StreamFailure,
  log: Log,
): (x: X) => R {
  const next = (x: X) => {
    if (!x.sent) respond(x)
  }
  return function observedOnce(x) {
    try {
      const watch = observer(x)
      if (watch) x.whenSent((status, bytes) => endWatch(watch, outcomeOf(x, status, bytes), name, log, x))
      if (watch?.run) watch.run(() => next(x))
      else next(x)
      if (!x.sent) throw new Error(`a stream handler's run() returned without calling next (${name})`)
    } catch (err) {
      // An observer that failed before giving a watch has nothing to end: the 500 page goes out unobserved.
      streamHandlerFailed(x, err, failed, log)
    }
    return x.result!
  }
}

/** What the watches' `end` is given once the response has been sent. */
function outcomeOf(x: Exchange, status: number, bytes: number): RequestOutcome {
  const { failure, exception, route } = x
  return failure === undefined && exception === undefined
    ? { status, responseBodySize: bytes, route }
    : { status, responseBodySize: bytes, route, error: failure, exception }
}

/** A stream handler threw: the app's 500 page, or a log line when the response already went out. */
function streamHandlerFailed(x: Exchange, err: unknown, failed: StreamFailure, log: Log): void {
  if (x.sent) logRequest(log, x, 'a stream handler failed after the response was sent', err)
  else {
    x.failure = err
    x.send(failed(err, x), log)
  }
}

/** Calls `watch.end`, logging (never throwing, naming the request `of`) when it fails: the request is over. */
export function endWatch(watch: RequestWatch, outcome: RequestOutcome, name: string, log: Log, of: RequestFacts): void {
  try {
    watch.end(outcome)
  } catch (err) {
    logRequest(log, of, `stream handler ${name} failed at the end of a request`, err)
  }
}
