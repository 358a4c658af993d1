/**
 * The app's `onRequest` hooks, run before routing on every exchange (node's, the web's, a
 * WebSocket upgrade), so they see every request, whatever routing will make of it: a route, a 404,
 * a 405, a health probe, an upgrade. Each hook is given the exchange as an `IncomingRequest` (its
 * facts, its id, `setHeader`); one that returns a reply or a `Response` answers the request at
 * once, and the answer goes out through the exchange's response step (added headers, the id
 * header, the `onResponse` hooks) as any other. Synchronous hooks cost no promise: only a hook
 * that returns one makes the rest wait for it.
 */
import type { RequestHook, RequestHookResult } from '../contracts/request-hook.ts'
import type { RouteInfo } from '../contracts/request.ts'
import type { PipelineContext } from '../pipeline/run.ts'
import { failureResponse } from '../pipeline/failure.ts'
import { isReply } from '../replies.ts'
import { VelaRequest } from '../request.ts'
import { encodeReply, respond } from '../respond.ts'
import type { Outcome } from '../respond.ts'
import { NO_BINDINGS } from '../router/dispatch.ts'
import type { Exchange } from './exchange.ts'
import type { Serve } from './route.ts'

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

/** Puts the hooks in front of `serve`; `serve` itself when the app has none. */
export function withRequestHooks<X extends Exchange>(
  hooks: readonly RequestHook[],
  ctx: PipelineContext,
  serve: Serve<X>,
): Serve<X> {
  const n = hooks.length
  if (n === 0) return serve

  /** What routing is given for a request a hook answered or failed: no route took it. */
  const requestOf = (x: X, hook: RequestHook): VelaRequest => {
    const info: RouteInfo = { path: x.path, prefix: '', controller: 'onRequest', action: hook.name || 'anonymous' }
    return new VelaRequest(x, info, NO_BINDINGS, undefined, ctx)
  }

  const answer = (
    x: X,
    hook: RequestHook,
    result: Exclude<RequestHookResult, undefined | void>,
  ): Outcome | Promise<Outcome> => {
    if (result instanceof Response) return result
    if (!isReply(result)) {
      const shown = typeof result === 'object' ? JSON.stringify(result)?.slice(0, 80) : String(result)
      throw new Error(
        `onRequest hook ${hook.name || '(anonymous)'} returned ${shown}; expected nothing, a reply (json(…), status(…), redirect(…)) or a Response`,
      )
    }
    return encodeReply(result, x.method, ctx) ?? respond(result, requestOf(x, hook), ctx)
  }

  const failed = (x: X, hook: RequestHook, err: unknown): Promise<Outcome> =>
    failureResponse(ctx, err, requestOf(x, hook), undefined)

  /** Hooks from `from` on, then routing; the first answer ends the walk. */
  function run(x: X, from: number): Outcome | Promise<Outcome> {
    for (let i = from; i < n; i++) {
      const hook = hooks[i]!
      try {
        const result = hook(x)
        if (isThenable(result)) {
          return Promise.resolve(result)
            .then(
              (r) => (r === undefined ? run(x, i + 1) : answer(x, hook, r)),
              (err: unknown) => failed(x, hook, err),
            )
            .catch((err: unknown) => failed(x, hook, err))
        }
        if (result !== undefined) return answer(x, hook, result)
      } catch (err) {
        return failed(x, hook, err)
      }
    }
    return serve(x)
  }

  return function onRequest(x) {
    return run(x, 0)
  }
}
