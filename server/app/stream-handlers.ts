/**
 * Stream handlers wrap the whole request, outside routing (the spec's cowboy stream handlers): a
 * metrics or tracing handler sees every request, including 404s, and the final response.
 * `server.streamHandlers` lists them outermost first; `'default'` is the dispatcher and comes last.
 */
import type { ResolvedConfig } from './config.ts'

export type FetchHandler = (request: Request) => Promise<Response>

export interface StreamHandler {
  readonly kind: 'vela.stream-handler'
  readonly name: string
  /** Called once at start-up with the next handler in the chain; returns this handler's fetch. */
  readonly wrap: (next: FetchHandler, config: ResolvedConfig) => FetchHandler
}

export function defineStreamHandler(def: Omit<StreamHandler, 'kind'>): StreamHandler {
  return { kind: 'vela.stream-handler', ...def }
}

export function composeStreamHandlers(config: ResolvedConfig, dispatch: FetchHandler): FetchHandler {
  const list = config.server.streamHandlers
  const at = list.indexOf('default')
  if (at !== -1 && at !== list.length - 1) {
    throw new Error(`server.streamHandlers: 'default' must come last; ${list.slice(at + 1).map((h) => (h === 'default' ? h : h.name)).join(', ')} would never run`)
  }
  let fetch = dispatch
  for (let i = list.length - 1; i >= 0; i--) {
    const h = list[i]!
    if (h === 'default') continue
    if (h?.kind !== 'vela.stream-handler') throw new Error(`server.streamHandlers[${i}] is not a stream handler made by defineStreamHandler`)
    fetch = h.wrap(fetch, config)
  }
  return fetch
}
