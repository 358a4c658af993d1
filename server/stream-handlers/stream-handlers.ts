/**
 * Stream handlers wrap the whole request, outside routing: a
 * metrics or tracing handler sees every request, including 404s and WebSocket upgrades, and the
 * final response. `server.streamHandlers` lists them outermost first; `'default'` is the
 * dispatcher and comes last.
 *
 * A handler is written against the observer contract (server/contracts/observer.ts), which the
 * runtime calls the same way on node's listener, for `app.fetch` and for upgrades:
 *
 *   defineStreamHandler({ name: 'count', observe: (config) => (facts) => ({ end: (o) => count(o.status) }) })
 *
 * The low-level form, `{ name, wrap, wrapNode?, wrapUpgrade? }`, wraps the app's entry points
 * themselves and may change the response (wrap-forms.ts). A handler made with `observe` gets the
 * three derived from it, so the two forms mix in one list; a list holding a low-level handler is
 * composed from the low-level forms, and one holding a handler without `wrapNode` answers node's
 * requests through web Requests (slower). Metrics (metrics.ts) and vela/telemetry are observers.
 */
import type { ResolvedConfig, StreamHandler } from '../contracts/config.ts'
import type { RequestObserver } from '../contracts/observer.ts'
import { wrapFormsOf } from './wrap-forms.ts'
import { VelaError } from '../errors/vela-error.ts'

export type { StreamHandler } from '../contracts/config.ts'
export type { FetchHandler, NodeHandler } from '../contracts/handlers.ts'

/** What `defineStreamHandler` takes: `{ name, observe }`, or the low-level `{ name, wrap, wrapNode?, wrapUpgrade? }`. */
export type StreamHandlerDefinition =
  /** The observer contract: `observe(config)` is called once at start-up. */
  | { readonly name: string; readonly observe: (config: ResolvedConfig) => RequestObserver | undefined }
  /** The low-level form. */
  | Pick<StreamHandler, 'name' | 'wrap' | 'wrapNode' | 'wrapUpgrade'>

/**
 * Makes a stream handler for `server.streamHandlers`: code that sees every request outside routing.
 *
 * Listed before `'default'`, outermost first, it sees 404s and WebSocket upgrades too.
 * `observe(config)` is called once at start-up and returns the observer called as each request
 * starts; its `end(outcome)` runs when the response has been sent. The low-level form `wrap`s
 * the app's entry points instead and may change the response.
 *
 * @example
 * ```ts
 * import { defineApp, defineStreamHandler } from 'vela'
 *
 * export const accessLog = defineStreamHandler({
 *   name: 'access-log',
 *   observe: () => (facts) => {
 *     const started = performance.now()
 *     return { end: (o) => console.log(`${facts.method} ${facts.path} ${o.status} ${o.route?.path ?? '-'} ${Math.round(performance.now() - started)}ms`) }
 *   },
 * })
 *
 * export default defineApp({ bootstrapApplication: 'shop', server: { streamHandlers: [accessLog, 'default'] } })
 * ```
 */
export function defineStreamHandler(def: StreamHandlerDefinition): StreamHandler {
  if ('observe' in def && typeof def.observe === 'function') {
    if ('wrap' in def)
      throw new Error(`stream handler ${def.name}: give observe or wrap (the low-level form), not both`)
    return { kind: 'vela.stream-handler', name: def.name, observe: def.observe, ...wrapFormsOf(def.name, def.observe) }
  }
  if (typeof (def as { wrap?: unknown }).wrap !== 'function')
    throw new Error(`stream handler ${def.name}: needs observe(config) or wrap(next, config)`)
  return { kind: 'vela.stream-handler', ...(def as Pick<StreamHandler, 'name' | 'wrap' | 'wrapNode' | 'wrapUpgrade'>) }
}

/** The listed handlers, outermost first, checked. */
export function streamHandlersOf(config: ResolvedConfig): StreamHandler[] {
  const list = config.server.streamHandlers
  const at = list.indexOf('default')
  if (at !== -1 && at !== list.length - 1) {
    throw new VelaError(
      'VELA_ERR_STREAM_HANDLER',
      `server.streamHandlers: 'default' must come last; ${list
        .slice(at + 1)
        .map((h) => (h === 'default' ? h : h.name))
        .join(', ')} would never run`,
    )
  }
  const handlers: StreamHandler[] = []
  list.forEach((h, i) => {
    if (h === 'default') return
    if (h?.kind !== 'vela.stream-handler')
      throw new VelaError(
        'VELA_ERR_STREAM_HANDLER',
        `server.streamHandlers[${i}] is not a stream handler made by defineStreamHandler`,
      )
    handlers.push(h)
  })
  return handlers
}
