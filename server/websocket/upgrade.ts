/**
 * The decision on a WebSocket upgrade request, taken through the same route table and the same
 * pipeline as HTTP: the `ws` route's group pre-request plugins run, then its security callback.
 * - allowed → `{ accept: true }` with the context the hooks get (authData, bindings, request)
 *   and headers for the 101 response (cookies a plugin set, e.g. a new session);
 * - a plugin's `stop`, a security rejection (401), a reply from security, an error → the
 *   response to send instead of upgrading;
 * - no `ws` route at that path (or not a WebSocket upgrade) → what the app answers over HTTP
 *   (404 for an unknown path), then the connection is closed.
 * Post-request plugins run after the decision, before the 101, as for any reply.
 */
import type { H3Event } from 'h3'
import { H3Event as Event_ } from 'h3'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'
import type { VelaRequest } from '../request.ts'
import type { CompiledRoute } from '../router/compile.ts'
import { buildMatcher, decodeParams } from '../router/dispatch.ts'
import type { FetchHandler } from '../stream-handlers/stream-handlers.ts'
import type { WebSocketContext, WebSocketHandler } from './define.ts'

export type UpgradeDecision =
  | {
      readonly accept: true
      readonly handler: WebSocketHandler
      readonly context: WebSocketContext
      readonly headers: Headers
      /** The app's logger, for failures of the connection's hooks. */
      readonly log: (message: string, error: unknown) => void
    }
  | { readonly accept: false; readonly response: Response }

export type UpgradeHandler = (request: Request) => Promise<UpgradeDecision>

interface Target {
  readonly handler: WebSocketHandler
  readonly run: RouteRunner
}

// The pipeline's "handler" for a ws route: remembers the request it was given (plugins and
// security done) and answers a placeholder that only carries the headers plugins set.
const accepted = new WeakMap<H3Event, VelaRequest>()
const acceptUpgrade = (req: VelaRequest) => {
  accepted.set(req.event, req)
  return new Response(null, { status: 204 })
}

// Headers of the placeholder that describe its (empty) body, not the 101.
const BODY_HEADERS = new Set(['content-length', 'content-type', 'transfer-encoding'])

export function createUpgradeHandler(opts: {
  routes: readonly CompiledRoute[]
  ctx: PipelineContext
  backend: 'compiled' | 'tree'
  /** The app's HTTP answer, for upgrade requests that no ws route takes. */
  fallback: FetchHandler
}): UpgradeHandler {
  const wsRoutes = opts.routes.filter((r) => r.kind === 'ws')
  const match = buildMatcher<Target>(
    wsRoutes,
    (route) => ({ handler: route.handler as WebSocketHandler, run: createRouteRunner(route, acceptUpgrade, opts.ctx) }),
    opts.backend,
  )
  return async function upgrade(request) {
    const isWebSocket = request.headers.get('upgrade')?.toLowerCase() === 'websocket' && request.method === 'GET'
    const event = new Event_(request)
    let found
    let bindings: Record<string, string> = {}
    try {
      found = isWebSocket ? match(event.url.pathname) : undefined
      if (found) bindings = decodeParams(found).bindings
    } catch {
      found = undefined // malformed percent-encoding: the HTTP path answers it (400)
    }
    if (!found) return { accept: false, response: await opts.fallback(request) }
    const target = found.data.first
    const response = await target.run(event, bindings, undefined)
    const req = accepted.get(event)
    if (!req || response.status !== 204) return { accept: false, response }
    const headers = new Headers()
    for (const [name, value] of response.headers) if (!BODY_HEADERS.has(name)) headers.append(name, value)
    return { accept: true, handler: target.handler, context: { authData: req.authData, bindings, req }, headers, log: opts.ctx.log }
  }
}
