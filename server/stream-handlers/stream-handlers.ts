/**
 * Stream handlers wrap the whole request, outside routing (the spec's cowboy stream handlers): a
 * metrics or tracing handler sees every request, including 404s, and the final response.
 * `server.streamHandlers` lists them outermost first; `'default'` is the dispatcher and comes last.
 *
 * A handler has a fetch-shaped `wrap` (in-process requests, and every request when some handler
 * has nothing else) and may add a node-shaped `wrapNode`: when every listed handler has one,
 * requests from node's listener keep the direct node path (node-handler.ts) inside them.
 * WebSocket upgrades are not HTTP responses; a handler that reports on them too adds
 * `wrapUpgrade` (handlers without it do not see upgrades). Once `next` has answered, a handler
 * can ask where the request was routed: `matchedRoute(request)` (matched-route.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendNodeResponse } from 'srvx/node'
import type { UpgradeHandler } from '../websocket/upgrade.ts'
import type { ResolvedConfig } from '../app/config.ts'

export type FetchHandler = (request: Request) => Promise<Response>
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void

export interface StreamHandler {
  readonly kind: 'vela.stream-handler'
  readonly name: string
  /** Called once at start-up with the next handler in the chain; returns this handler's fetch. */
  readonly wrap: (next: FetchHandler, config: ResolvedConfig) => FetchHandler
  /**
   * The same handler for node's listener. `next` never throws; the handler sees the response on
   * `res` (its status, and 'finish' or 'close' when it has been sent).
   */
  readonly wrapNode?: (next: NodeHandler, config: ResolvedConfig) => NodeHandler
  /**
   * Around the decision on a WebSocket upgrade: `next` resolves to the accepted upgrade (then a
   * 101) or to the response sent instead (whose body is read once, to be written on the socket).
   */
  readonly wrapUpgrade?: (next: UpgradeHandler, config: ResolvedConfig) => UpgradeHandler
}

export function defineStreamHandler(def: Omit<StreamHandler, 'kind'>): StreamHandler {
  return { kind: 'vela.stream-handler', ...def }
}

/** The listed handlers, innermost first, checked. */
function handlersOf(config: ResolvedConfig): StreamHandler[] {
  const list = config.server.streamHandlers
  const at = list.indexOf('default')
  if (at !== -1 && at !== list.length - 1) {
    throw new Error(`server.streamHandlers: 'default' must come last; ${list.slice(at + 1).map((h) => (h === 'default' ? h : h.name)).join(', ')} would never run`)
  }
  const handlers: StreamHandler[] = []
  for (let i = list.length - 1; i >= 0; i--) {
    const h = list[i]!
    if (h === 'default') continue
    if (h?.kind !== 'vela.stream-handler') throw new Error(`server.streamHandlers[${i}] is not a stream handler made by defineStreamHandler`)
    handlers.push(h)
  }
  return handlers
}

/**
 * The answer to a request whose stream handler threw or rejected (a handler's bug): the app's
 * 500 page. The chains below are guarded only when there are handlers (the dispatcher guards itself).
 */
export type StreamFailure = (error: unknown, accept: string | null) => Response

export function composeStreamHandlers(config: ResolvedConfig, dispatch: FetchHandler, failed: StreamFailure): FetchHandler {
  const handlers = handlersOf(config)
  if (handlers.length === 0) return dispatch
  const chain = handlers.reduce((next, h) => h.wrap(next, config), dispatch)
  return (request) => {
    const answer = (err: unknown) => failed(err, request.headers.get('accept'))
    try {
      return chain(request).then(undefined, answer)
    } catch (err) {
      return Promise.resolve(answer(err))
    }
  }
}

/** The node-shaped chain around `dispatch`, or undefined when a listed handler has no `wrapNode`. */
export function composeNodeStreamHandlers(config: ResolvedConfig, dispatch: NodeHandler, failed: StreamFailure): NodeHandler | undefined {
  const handlers = handlersOf(config)
  if (handlers.length === 0) return dispatch
  if (!handlers.every((h) => h.wrapNode)) return undefined
  const chain = handlers.reduce((next, h) => h.wrapNode!(next, config), dispatch)
  return (req, res) => {
    try {
      chain(req, res)
    } catch (err) {
      // Thrown after the response began: nothing sensible can follow on this connection.
      if (res.headersSent) res.destroy()
      else void sendNodeResponse(res, failed(err, req.headers.accept ?? null)).catch(() => res.destroy())
    }
  }
}

/** The upgrade decision inside the handlers that have `wrapUpgrade`; a throw becomes a rejection (a 500). */
export function composeUpgradeHandlers(config: ResolvedConfig, decide: UpgradeHandler): UpgradeHandler {
  const chain = handlersOf(config).reduce((next, h) => (h.wrapUpgrade ? h.wrapUpgrade(next, config) : next), decide)
  if (chain === decide) return decide
  return (request) => {
    try {
      return chain(request)
    } catch (err) {
      return Promise.reject(err)
    }
  }
}
