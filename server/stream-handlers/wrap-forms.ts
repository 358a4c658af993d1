/**
 * The low-level stream handler form: `wrap(next)` around the app's fetch, `wrapNode(next)` around
 * node's listener, `wrapUpgrade(next)` around the upgrade decision. Kept for handlers that change
 * the response; derived for observer handlers (`wrapFormsOf`), so both kinds mix in one list. An
 * app whose list holds a low-level handler has its entry points composed from these forms
 * (`composeWrapForms`); an app whose handlers all observe does not use them at all.
 *
 * The derived forms find the request's exchange where the runtime will find it again (registered
 * on node's request or the web Request), so an observer's per-request state on `facts` reaches
 * plugins through `req.facts` in either composition.
 */
import { toNodeHandler } from 'srvx/node'
import type { ResolvedConfig, StreamHandler } from '../contracts/config.ts'
import type { FetchHandler, NodeHandler, UpgradeHandler } from '../contracts/handlers.ts'
import type { RequestObserver, RequestWatch } from '../contracts/observer.ts'
import type { Exchange } from '../exchange/exchange.ts'
import { NodeExchange } from '../exchange/node.ts'
import { closeWithConnection } from '../exchange/queued-response.ts'
import { endWatch } from '../exchange/entry-points.ts'
import { whenNodeResponseEnds, whenResponseEnds } from '../exchange/response-end.ts'
import { WebExchange } from '../exchange/web.ts'
import { UpgradeExchange } from '../websocket/upgrade.ts'

type WrapForms = Pick<StreamHandler, 'wrap' | 'wrapNode' | 'wrapUpgrade'>

const log = (message: string, error: unknown) => console.error(`[vela] ${message}:`, error)

/** The three low-level forms of an observer handler. */
export function wrapFormsOf(name: string, observe: (config: ResolvedConfig) => RequestObserver | undefined): WrapForms {
  const end = (watch: RequestWatch, x: Exchange, status: number, bytes: number, error?: unknown) =>
    endWatch(
      watch,
      { status, responseBodySize: bytes, route: x.route, ...(error === undefined ? {} : { error }) },
      name,
      log,
      x,
    )
  return {
    wrap(next, config) {
      const observer = observe(config)
      if (!observer) return next
      return (request) => {
        const x = WebExchange.of(request)
        const watch = observer(x)
        if (!watch) return next(request)
        return within(watch, name, () => next(request)).then(
          (res) => whenResponseEnds(request, res, (status, bytes) => end(watch, x, status, bytes)),
          (err: unknown) => {
            end(watch, x, 500, 0, err)
            throw err
          },
        )
      }
    },
    wrapNode(next, config) {
      const observer = observe(config)
      if (!observer) return next
      return (req, res) => {
        const x = NodeExchange.of(req, res)
        const watch = observer(x)
        if (!watch) return next(req, res)
        whenNodeResponseEnds(res, req.method === 'HEAD', (status, bytes) => end(watch, x, status, bytes))
        within(watch, name, () => next(req, res))
      }
    },
    wrapUpgrade(next, config) {
      const observer = observe(config)
      if (!observer) return next
      return (request) => {
        const x = UpgradeExchange.of(request)
        const watch = observer(x)
        if (!watch) return next(request)
        return within(watch, name, () => next(request)).then(
          (decision) => {
            if (decision.accept) {
              end(watch, x, 101, 0)
              return decision
            }
            return {
              accept: false,
              response: whenResponseEnds(request, decision.response, (status, bytes) => end(watch, x, status, bytes)),
            }
          },
          (err: unknown) => {
            end(watch, x, 500, 0, err)
            throw err
          },
        )
      }
    },
  }
}

/** `fn()` inside the watch's `run`, which must call it before returning. */
function within<T>(watch: RequestWatch, name: string, fn: () => T): T {
  if (!watch.run) return fn()
  let called = false
  let out: T
  watch.run(() => {
    called = true
    out = fn()
  })
  if (!called) throw new Error(`stream handler ${name}: run() returned without calling next`)
  return out!
}

/** The answer to a request whose low-level stream handler threw or rejected: the app's 500 page. */
export type WrapFailure = (error: unknown, accept: string | null) => Response

/**
 * The app's entry points inside the listed handlers' low-level forms (outermost first). Node's
 * listener keeps the direct path when every handler has `wrapNode`; otherwise its requests go
 * through `fetch` as web Requests made by srvx's node adapter (the one use of it left, for
 * handlers that can only wrap a fetch).
 */
export function composeWrapForms(
  handlers: readonly StreamHandler[],
  config: ResolvedConfig,
  core: { fetch: FetchHandler; handleNode: NodeHandler; upgrade: UpgradeHandler },
  failed: WrapFailure,
): { fetch: FetchHandler; handleNode: NodeHandler; upgrade: UpgradeHandler } {
  const fetchChain = handlers.reduceRight((next, h) => h.wrap(next, config), core.fetch)
  const fetch: FetchHandler = (request) => {
    const answer = (err: unknown) => failed(err, request.headers.get('accept'))
    try {
      return fetchChain(request).then(undefined, answer)
    } catch (err) {
      return Promise.resolve(answer(err))
    }
  }

  let handleNode: NodeHandler
  if (handlers.every((h) => h.wrapNode)) {
    const nodeChain = handlers.reduceRight((next, h) => h.wrapNode!(next, config), core.handleNode)
    handleNode = (req, res) => {
      try {
        nodeChain(req, res)
      } catch (err) {
        // Thrown after the response began: nothing sensible can follow on this connection.
        if (res.headersSent) res.destroy()
        else NodeExchange.of(req, res).send(failed(err, req.headers.accept ?? null), log)
      }
    }
  } else {
    const viaFetch = toNodeHandler(fetch) as NodeHandler
    // srvx waits for node's 'close' too: a queued response must get one (queued-response.ts).
    handleNode = (req, res) => {
      closeWithConnection(req, res)
      viaFetch(req, res)
    }
  }

  const upgradeChain = handlers.reduceRight(
    (next, h) => (h.wrapUpgrade ? h.wrapUpgrade(next, config) : next),
    core.upgrade,
  )
  const upgrade: UpgradeHandler = (request) => {
    try {
      return upgradeChain(request)
    } catch (err) {
      return Promise.reject(err)
    }
  }
  return { fetch, handleNode, upgrade }
}
