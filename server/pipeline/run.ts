/**
 * The request lifecycle of one route, built once per route at start-up:
 *
 *   pre-request plugins → security callback → request check → handler → response check
 *   → post-request plugins → response
 *
 * - A pre plugin may continue (`ok`), skip the rest of the phase (`break`), answer now (`stop`)
 *   or fail (`fail` → 500).
 * - Security: `true` or an object allows (the object becomes `req.authData`), `false` is a 401,
 *   a reply is sent as is; a throw is a 500.
 * - The request check (the route's `validate`, server/validate/) answers a 422 with the field
 *   errors, or lets the handler see the validated values.
 * - The handler must return a reply or a `Response`; anything else is a 500 naming the controller.
 * - The response check (`responses`, `validate.response`; dev and test) may log a mismatch or, in
 *   test, replace the reply with a 500.
 * - Post plugins see `req.reply` and may replace it; `stop(reply)` replaces it and ends the phase.
 * Sync callbacks are not awaited, so a route without async work runs without a promise.
 */
import type { H3Event } from 'h3'
import type { CompiledRoute, Handler } from '../contracts/routes.ts'
import type { RequestScope } from '../contracts/request.ts'
import type { Exchange } from '../exchange/exchange.ts'
import { preparedHeaders } from '../exchange/internals.ts'
import { isReply } from '../replies.ts'
import type { Reply } from '../replies.ts'
import { VelaRequest } from '../request.ts'
import { asResponse, encodeReply, respond, writableResponse } from '../respond.ts'
import type { Outcome } from '../respond.ts'
import type { RouteChecks } from '../validate/route-checks.ts'
import type { HandlerDeadlines } from './deadline.ts'
import type { FailureContext } from './failure.ts'
import { PluginFailure, failureResponse, statusPage } from './failure.ts'
import type { PipelineObserver } from './observer.ts'
import type { PluginEnv, PluginResult } from './plugin.ts'
import { type PluginStep, type StepContext, stepContext } from './registration.ts'
import { callSecurity, callStep } from './traced.ts'

/** What the route's pipeline needs of the app; the request's own part (`RequestScope`: body limit, `publish`, trusted proxies) is handed to every `VelaRequest`. */
export interface PipelineContext extends FailureContext, RequestScope {
  readonly app: string
  readonly environment: string
  /** The app's handler deadlines (none: routes run without one). */
  readonly deadlines?: HandlerDeadlines
  /** Each route's request and response checks, from its `validate` and `responses` options. */
  readonly routeChecks?: ReadonlyMap<CompiledRoute, RouteChecks>
  /** Told what each plugin step and security callback did (observer.ts); none: they are called directly. */
  readonly observer?: PipelineObserver
}

/**
 * Runs the route for one exchange: a `Response`, or an encoded reply the exchange sends as it is;
 * a promise only when a callback returned one. Never throws or rejects: failures are answered.
 */
export type RouteRunner = (
  x: Exchange,
  bindings: Readonly<Record<string, string>>,
  pathInfo: string | undefined,
) => Outcome | Promise<Outcome>

const EMPTY_AUTH = Object.freeze({})

/** A promise, or any object with a `then` method (some libraries return their own). */
function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function'
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined'
  if (typeof v === 'function') return `a function (${v.name || 'anonymous'})`
  try {
    const s = JSON.stringify(v)
    return s && s.length > 80 ? `${s.slice(0, 80)}…` : String(s)
  } catch {
    return Object.prototype.toString.call(v)
  }
}

function checkResult(r: unknown, step: PluginStep): PluginResult {
  const tag = (r as PluginResult | undefined)?.result
  if (tag === 'ok' || tag === 'break' || tag === 'stop' || tag === 'error') return r as PluginResult
  throw new Error(
    `plugin ${step.plugin.name} (${step.phase}) returned ${describeValue(r)}; expected ok(), breakPhase(), stop(reply) or fail(reason)`,
  )
}

type PhaseOutcome = VelaRequest | { stopped: Reply | Response }

/** Records the step's state; gives the request for the next step, or the phase's outcome when the step ends the phase. */
function applyResult(step: PluginStep, req: VelaRequest, raw: unknown): VelaRequest | { end: PhaseOutcome } {
  const r = checkResult(raw, step)
  if (r.result === 'error') throw new PluginFailure(step.plugin.name, r.reason)
  if (r.state !== undefined) step.registration.state = r.state
  if (r.result === 'stop') return { end: { stopped: r.reply } }
  if (r.result === 'break') return { end: r.req ?? req }
  return r.req ?? req
}

type Verdict = boolean | object | Reply | Response
/** What comes after a step: it takes the step's value and the request, and gives the outcome. */
type Next<T> = (value: T, req: VelaRequest) => Outcome | Promise<Outcome>

export function createRouteRunner(
  route: CompiledRoute,
  handler: Handler,
  ctx: PipelineContext,
  checks: RouteChecks = {},
): RouteRunner {
  const { group, info } = route
  const { request: checkRequest, response: checkResponse } = checks
  const { pre, post, security } = group
  const preEnv: PluginEnv = {
    app: ctx.app,
    environment: ctx.environment,
    phase: 'pre_request',
    route: info,
    jsonLib: ctx.jsonLib,
  }
  const postEnv: PluginEnv = { ...preEnv, phase: 'post_request' }
  // Each step's `ctx` on this route, made once: a callback's context costs the request nothing.
  const preContexts = pre.map((step) => stepContext(step, preEnv))
  const postContexts = post.map((step) => stepContext(step, postEnv))
  const deadline = ctx.deadlines?.forRoute(route)
  // With an observer (the dev server's dashboard), each plugin and the security callback is reported (traced.ts).
  const observer = ctx.observer

  // The steps below are written in continuation-passing style: each calls the next directly while
  // the user's callbacks return plain values, so a route whose callbacks are all synchronous runs
  // to its outcome without a promise. From the first callback that returns one, the rest runs in
  // that promise's single `.then` (no hop per step), which also answers a throw or a rejection.

  function resume<T>(pending: PromiseLike<T>, next: Next<T>, req: VelaRequest): Promise<Outcome> {
    return Promise.resolve(pending).then(
      (value) => {
        try {
          return next(value, req)
        } catch (err) {
          return failed(err, req)
        }
      },
      (err: unknown) => failed(err, req),
    )
  }

  const failed = (err: unknown, req: VelaRequest): Promise<Outcome> =>
    failureResponse(ctx, err, req, group).then((res) => finish(res, req))

  /** Runs one phase's plugins from `from`, then `next` with the (possibly replaced) request or the reply of a plugin that stopped. */
  function runPhase(
    steps: readonly PluginStep[],
    contexts: readonly StepContext[],
    req: VelaRequest,
    next: Next<PhaseOutcome>,
    from = 0,
  ): Outcome | Promise<Outcome> {
    for (let i = from; i < steps.length; i++) {
      const step = steps[i]!
      const raw = observer ? callStep(observer, step, req, contexts[i]!) : step.call(req, contexts[i]!)
      if (isThenable(raw)) {
        return resume(
          raw,
          (r, current) => {
            const after = applyResult(step, current, r)
            return after instanceof VelaRequest
              ? runPhase(steps, contexts, after, next, i + 1)
              : next(after.end, current)
          },
          req,
        )
      }
      const after = applyResult(step, req, raw)
      if (!(after instanceof VelaRequest)) return next(after.end, req)
      req = after
    }
    return next(req, req)
  }

  function afterPre(out: PhaseOutcome, req: VelaRequest): Outcome | Promise<Outcome> {
    return out instanceof VelaRequest ? secure(out) : finish(render(out.stopped, req), req)
  }

  function secure(req: VelaRequest): Outcome | Promise<Outcome> {
    if (!security) return handle(req)
    const verdict = observer ? callSecurity<Verdict>(observer, security, req) : security(req)
    return isThenable(verdict) ? resume(verdict, afterSecurity, req) : afterSecurity(verdict, req)
  }

  function afterSecurity(verdict: Verdict, req: VelaRequest): Outcome | Promise<Outcome> {
    if (verdict === true) return handle(req)
    if (verdict === false) return finish(statusPage(ctx, 401, req, group), req)
    if (isReply(verdict) || verdict instanceof Response) return finish(render(verdict, req), req)
    if (typeof verdict !== 'object' || verdict === null || Array.isArray(verdict)) {
      throw new Error(
        `security callback of group ${JSON.stringify(group.prefix)} returned ${describeValue(verdict)}; expected true, false, an auth data object or a reply`,
      )
    }
    req.authData = verdict
    return handle(req)
  }

  function handle(req: VelaRequest): Outcome | Promise<Outcome> {
    if (!checkRequest) return callHandler(req)
    const refused = checkRequest(req)
    return isThenable(refused) ? resume(refused, afterCheck, req) : afterCheck(refused, req)
  }

  function afterCheck(refused: Reply | undefined, req: VelaRequest): Outcome | Promise<Outcome> {
    return refused ? finish(render(refused, req), req) : callHandler(req)
  }

  function callHandler(req: VelaRequest): Outcome | Promise<Outcome> {
    const reply = handler(req)
    return isThenable(reply)
      ? resume(reply, checkResponse ? checkedReply : afterHandler, req)
      : checkResponse
        ? checkedReply(reply, req)
        : afterHandler(reply, req)
  }

  /** The handler's reply through the response check: the same reply, or the check's 500. */
  function checkedReply(reply: unknown, req: VelaRequest): Outcome | Promise<Outcome> {
    if (!isReply(reply)) return afterHandler(reply, req)
    const replaced = checkResponse!(reply)
    return isThenable(replaced)
      ? resume(replaced, (r, current) => afterHandler(r ?? reply, current), req)
      : afterHandler(replaced ?? reply, req)
  }

  function afterHandler(reply: unknown, req: VelaRequest): Outcome | Promise<Outcome> {
    if (!isReply(reply) && !(reply instanceof Response)) {
      throw new Error(
        `${info.controller}.${info.action} returned ${describeValue(reply)}, which is not a reply: return json(…), status(…), redirect(…), view(…) or a Response`,
      )
    }
    if (!post.length) return finish(render(reply, req), req)
    req.reply = reply
    // Post plugins replace the reply through `req.reply`; one that clears it leaves the handler's.
    return runPhase(post, postContexts, req, (out, current) =>
      out instanceof VelaRequest
        ? finish(render(out.reply ?? reply, out), out)
        : finish(render(out.stopped, current), current),
    )
  }

  // Plain replies are encoded without making a Response: the node path writes them as they are.
  // `isReply` first: a brand read, where `instanceof Response` cost every request a generic lookup.
  const render = (reply: Reply | Response, req: VelaRequest): Outcome | Promise<Response> =>
    isReply(reply) ? (encodeReply(reply, req.method, ctx) ?? respond(reply, req, ctx)) : reply

  /**
   * The outcome as sent: headers set through h3 utilities live on the event, if one was made. A
   * 101 (a WebSocket route that let the upgrade through) is no web Response: the upgrade
   * exchange sends those headers with it.
   */
  function finish(outcome: Outcome | Promise<Outcome>, req: VelaRequest): Outcome | Promise<Outcome> {
    if (isThenable(outcome)) return resume(outcome, finish, req)
    const event = req.eventIfMade
    return event && outcome.status !== 101 ? withPreparedHeaders(event, outcome) : outcome
  }

  return function pipeline(x, bindings, pathInfo) {
    // For the observers around routing (tracing names the span after the route).
    x.route = info
    const req = new VelaRequest(x, info, bindings, pathInfo, ctx)
    req.authData = EMPTY_AUTH
    try {
      const outcome = pre.length ? runPhase(pre, preContexts, req, afterPre) : secure(req)
      // Only a pending outcome can miss its deadline.
      if (deadline !== undefined && outcome instanceof Promise) x.deadline = deadline.track(x, req, route)
      return outcome
    } catch (err) {
      return failed(err, req)
    }
  }
}

/**
 * Headers set through h3 utilities on the event (`setCookie`, `appendCorsHeaders`,
 * `setResponseHeader`) are merged into whatever response the pipeline produced, errors included.
 */
function withPreparedHeaders(event: H3Event, outcome: Outcome): Outcome {
  const prepared = preparedHeaders(event)
  if (!prepared) return outcome
  const target = writableResponse(asResponse(outcome))
  mergeInto(target.headers, prepared)
  return target
}

function mergeInto(headers: Headers, extra: Headers) {
  for (const [name, value] of extra) {
    if (name === 'set-cookie') headers.append(name, value)
    else headers.set(name, value)
  }
}
