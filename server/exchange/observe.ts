/**
 * Calling the observers of stream handlers (server/contracts/observer.ts) around an exchange, the
 * same way on every path. Per request: each observer, outermost first, is given the exchange as
 * the request's facts, inside the `run` of the ones before it; the innermost step serves and
 * sends the response; once it has been sent (node: written or abandoned; web: its body read),
 * every watch's `end` is called, innermost first. An observer that throws costs that request the
 * 500 page, never the server; one whose `end` throws is logged.
 */
import type { RequestObserver, RequestOutcome, RequestWatch } from '../contracts/observer.ts'
import type { Outcome } from '../respond.ts'
import type { Exchange, Log } from './exchange.ts'

export interface NamedObserver {
  readonly name: string
  readonly observer: RequestObserver
}

/** The answer to a request whose stream handler failed: the app's 500 page. */
export type StreamFailure = (error: unknown, x: Exchange) => Outcome

/** `respond(x)` serves and sends; with observers it runs inside them. Gives what the exchange's `send` gave. */
export function withObservers<X extends Exchange<R>, R>(observers: readonly NamedObserver[], respond: (x: X) => R, failed: StreamFailure, log: Log): (x: X) => R {
  if (observers.length === 0) return respond
  const n = observers.length
  return function observed(x) {
    const watches: RequestWatch[] = []
    const names: string[] = []
    x.whenSent((status, bytes) => {
      const outcome: RequestOutcome = { status, responseBodySize: bytes, route: x.route, ...(x.failure === undefined ? {} : { error: x.failure }) }
      for (let i = watches.length - 1; i >= 0; i--) endWatch(watches[i]!, outcome, names[i]!, log)
    })
    const step = (from: number): void => {
      for (let i = from; i < n; i++) {
        const { name, observer } = observers[i]!
        const watch = observer(x)
        if (!watch) continue
        watches.push(watch)
        names.push(name)
        if (watch.run) return watch.run(() => step(i + 1))
      }
      respond(x)
    }
    try {
      step(0)
      if (!x.sent) throw new Error(`a stream handler's run() returned without calling next (${names.join(', ')})`)
    } catch (err) {
      if (x.sent) log('a stream handler failed after the response was sent', err)
      else {
        x.failure = err
        x.send(failed(err, x), log)
      }
    }
    return x.result!
  }
}

/** Calls `watch.end`, logging (never throwing) when it fails: the request is over. */
export function endWatch(watch: RequestWatch, outcome: RequestOutcome, name: string, log: Log): void {
  try {
    watch.end(outcome)
  } catch (err) {
    log(`stream handler ${name} failed at the end of a request`, err)
  }
}
