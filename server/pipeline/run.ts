/**
 * The request lifecycle of one route, built once per route at start-up:
 *
 *   pre-request plugins → security callback → handler → post-request plugins → response
 *
 * - A pre plugin may continue (`ok`), skip the rest of the phase (`break`), answer now (`stop`)
 *   or fail (`fail` → 500).
 * - Security: `true` or an object allows (the object becomes `req.authData`), `false` is a 401,
 *   a reply is sent as is; a throw is a 500.
 * - The handler must return a reply or a `Response`; anything else is a 500 naming the controller.
 * - Post plugins see `req.reply` and may replace it; `stop(reply)` replaces it and ends the phase.
 * Sync callbacks are not awaited, so a route without async work costs no extra microtasks.
 */
import type { H3Event } from 'h3'
import type { CompiledRoute } from '../router/compile.ts'
import type { Handler } from '../router/types.ts'
import { isReply } from '../replies.ts'
import type { Reply } from '../replies.ts'
import { VelaRequest } from '../request.ts'
import type { NodeOrigin } from '../request.ts'
import { encodeReply, respond, toResponse } from '../respond.ts'
import type { EncodedReply } from '../respond.ts'
import type { FailureContext } from './failure.ts'
import { PluginFailure, failureResponse, statusPage } from './failure.ts'
import type { PluginEnv, PluginResult, PluginStep } from './plugin.ts'

export interface PipelineContext extends FailureContext {
  readonly app: string
  readonly environment: string
  readonly bodyLimit: number
}

export interface RouteRunner {
  /** Runs the route for an h3 event; always a `Response`. */
  (event: H3Event, bindings: Record<string, string>, pathInfo: string | undefined): Promise<Response>
  /** Runs the route straight from node's request: a `Response`, or an encoded reply to write as is. */
  node(origin: NodeOrigin, bindings: Record<string, string>, pathInfo: string | undefined): Promise<Response | EncodedReply>
}

const EMPTY_AUTH = Object.freeze({})

function isThenable<T>(v: T | Promise<T>): v is Promise<T> {
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
  throw new Error(`plugin ${step.plugin.name} (${step.phase}) returned ${describeValue(r)}; expected ok(), breakPhase(), stop(reply) or fail(reason)`)
}

type PhaseOutcome = VelaRequest | { stopped: Reply | Response }

/**
 * Runs one phase: the (possibly replaced) request, or the reply of a plugin that stopped the
 * pipeline. Stays synchronous while the plugins do, and continues asynchronously from the first
 * plugin that returns a promise.
 */
function runPhase(steps: readonly PluginStep[], req: VelaRequest, env: PluginEnv, from = 0): PhaseOutcome | Promise<PhaseOutcome> {
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!
    const raw = step.call(req, env, step)
    if (isThenable(raw)) return raw.then((r) => afterStep(steps, i, req, env, r))
    const next = applyResult(step, req, raw)
    if (!(next instanceof VelaRequest)) return next.end
    req = next
  }
  return req
}

function afterStep(steps: readonly PluginStep[], i: number, req: VelaRequest, env: PluginEnv, raw: PluginResult): PhaseOutcome | Promise<PhaseOutcome> {
  const next = applyResult(steps[i]!, req, raw)
  return next instanceof VelaRequest ? runPhase(steps, next, env, i + 1) : next.end
}

/** Records the step's state; gives the request for the next step, or the phase's outcome when the step ends the phase. */
function applyResult(step: PluginStep, req: VelaRequest, raw: unknown): VelaRequest | { end: PhaseOutcome } {
  const r = checkResult(raw, step)
  if (r.result === 'error') throw new PluginFailure(step.plugin.name, r.reason)
  if (r.state !== undefined) step.state = r.state
  if (r.result === 'stop') return { end: { stopped: r.reply } }
  if (r.result === 'break') return { end: r.req ?? req }
  return r.req ?? req
}

/** A pipeline's result: a ready `Response`, or an encoded reply not yet turned into one. */
type Outcome = Response | EncodedReply

export function createRouteRunner(route: CompiledRoute, handler: Handler, ctx: PipelineContext): RouteRunner {
  const { group, info } = route
  const { pre, post, security } = group
  const preEnv: PluginEnv = { app: ctx.app, environment: ctx.environment, phase: 'pre_request', route: info, jsonLib: ctx.jsonLib }
  const postEnv: PluginEnv = { ...preEnv, phase: 'post_request' }
  const bodyLimit = ctx.bodyLimit

  // Plain replies are encoded without making a Response: the node path writes them as they are.
  const render = (reply: Reply | Response, req: VelaRequest): Outcome | Promise<Response> =>
    reply instanceof Response ? reply : (encodeReply(reply, req.method, ctx) ?? respond(reply, req, ctx))

  async function pipeline(origin: H3Event | NodeOrigin, bindings: Record<string, string>, pathInfo: string | undefined): Promise<Outcome> {
    let req = new VelaRequest(origin, info, bindings, pathInfo, bodyLimit)
    req.authData = EMPTY_AUTH
    let outcome: Outcome | Promise<Outcome>
    try {
      // One block, left with `break` once the outcome is known: no extra async frame per request.
      decide: {
        if (pre.length) {
          let out = runPhase(pre, req, preEnv)
          if (isThenable(out)) out = await out
          if (!(out instanceof VelaRequest)) {
            outcome = render(out.stopped, req)
            break decide
          }
          req = out
        }
        if (security) {
          let verdict = security(req)
          if (isThenable(verdict)) verdict = await verdict
          if (verdict !== true) {
            if (verdict === false) {
              outcome = statusPage(ctx, 401, req, group)
              break decide
            }
            if (isReply(verdict) || verdict instanceof Response) {
              outcome = render(verdict, req)
              break decide
            }
            if (typeof verdict !== 'object' || verdict === null || Array.isArray(verdict)) {
              throw new Error(`security callback of group ${JSON.stringify(group.prefix)} returned ${describeValue(verdict)}; expected true, false, an auth data object or a reply`)
            }
            req.authData = verdict
          }
        }
        let reply = handler(req)
        if (isThenable(reply)) reply = await reply
        if (!isReply(reply) && !(reply instanceof Response)) {
          throw new Error(
            `${info.controller}.${info.action} returned ${describeValue(reply)}, which is not a reply: return json(…), status(…), redirect(…), view(…) or a Response`,
          )
        }
        if (post.length) {
          req.reply = reply
          let out = runPhase(post, req, postEnv)
          if (isThenable(out)) out = await out
          reply = out instanceof VelaRequest ? (out.reply ?? reply) : out.stopped
        }
        outcome = render(reply, req)
      }
      if (isThenable(outcome)) outcome = await outcome
    } catch (err) {
      outcome = await failureResponse(ctx, err, req, group)
    }
    // Headers set through h3 utilities live on the event, if one was made.
    const event = req.eventIfMade
    if (!event) return outcome
    return withPreparedHeaders(event, outcome instanceof Response ? outcome : toResponse(outcome))
  }

  const run = (async (event: H3Event, bindings: Record<string, string>, pathInfo: string | undefined) => {
    const outcome = await pipeline(event, bindings, pathInfo)
    return outcome instanceof Response ? outcome : toResponse(outcome)
  }) as RouteRunner
  run.node = (origin, bindings, pathInfo) => pipeline(origin, bindings, pathInfo)
  return run
}

const kEventRes = Symbol.for('h3.internal.event.res')
const kEventResHeaders = Symbol.for('h3.internal.event.res.headers')

/**
 * Headers set through h3 utilities on the event (`setCookie`, `appendCorsHeaders`,
 * `setResponseHeader`) are merged into whatever response the pipeline produced, errors included.
 */
function withPreparedHeaders(event: H3Event, res: Response): Response {
  const prepared = (event as unknown as Record<symbol, Record<symbol, Headers | undefined> | undefined>)[kEventRes]?.[kEventResHeaders]
  if (!prepared) return res
  let target = res
  try {
    mergeInto(res.headers, prepared)
  } catch {
    // Responses from fetch() or Response.redirect() have immutable headers: copy.
    target = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers })
    mergeInto(target.headers, prepared)
  }
  return target
}

function mergeInto(headers: Headers, extra: Headers) {
  for (const [name, value] of extra) {
    if (name === 'set-cookie') headers.append(name, value)
    else headers.set(name, value)
  }
}
