/**
 * What a request that failed gets: `httpError` answers with its status; Vela's own coded
 * infrastructure errors (`vela/dbl`'s `DbUnavailableError`: `status` 503 or 504 and a
 * `VELA_ERR_*` code) their status, the code in the JSON body, logged as one line: a 503 ("nothing
 * was done, try again later") with `Retry-After`, a 504 (`VELA_ERR_DB_OUTCOME_UNKNOWN`: a write
 * was sent and never answered, it may have been applied) without, since a blind retry may apply
 * it twice; an error in the `http-errors` shape (`status` 4xx and `expose`, as `vela/dbl`'s
 * `DbError` for a value the database refused) its status, with its message when it is exposed
 * (or in development), not logged: the request was at fault; a body the client stopped sending
 * (`ClientClosedError`) is logged as one line with status 499 and not answered (there is no one
 * to answer); anything else thrown (or a plugin's `error` result) is a logged 500. A group's status route (`[404, handler]`)
 * replaces the built-in page for that status; if the status route itself fails, the built-in page
 * is sent.
 */
import { logKey } from '../app/coalesce-log.ts'
import { logRequest } from '../app/request-log.ts'
import type { CompiledGroup } from '../contracts/routes.ts'
import { ClientClosedError } from '../errors/client-faults.ts'
import type { ErrorPageContext } from '../errors/error-page.ts'
import { errorPage, statusText } from '../errors/error-page.ts'
import { HttpError, isClientFault } from '../errors/http-error.ts'
import { isCodedInfrastructure } from '../errors/vela-error.ts'
import type { Exchange } from '../exchange/exchange.ts'
import { isReply, status } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { RespondContext } from '../respond.ts'
import { respond } from '../respond.ts'

/** A plugin returned `fail(reason)`. */
export class PluginFailure extends Error {
  constructor(
    readonly pluginName: string,
    readonly reason: unknown,
  ) {
    super(`plugin ${pluginName} failed: ${reason instanceof Error ? reason.message : String(reason)}`, {
      cause: reason,
    })
  }
}

export interface FailureContext extends ErrorPageContext, RespondContext {
  /** The app's log; `key` names the line's kind, so repeats are coalesced (server/app/coalesce-log.ts). */
  readonly log: (message: string, error: unknown, key?: string) => void
}

function describe(req: VelaRequest): string {
  return `${req.method} ${req.path} (${req.route.controller}.${req.route.action})`
}

/** The kind of a request's log line: the status, the route's pattern (never the path sent) and the error's kind. */
const keyOf = (status: number | string, req: VelaRequest, err: unknown) =>
  logKey(`${status} ${req.method} ${req.route.path}`, err)

export async function failureResponse(
  ctx: FailureContext,
  err: unknown,
  req: VelaRequest,
  group: CompiledGroup | undefined,
): Promise<Response> {
  if (err instanceof ClientClosedError) {
    logRequest(
      ctx.log,
      req.facts,
      `${err.status} on ${describe(req)}: ${err.message}`,
      undefined,
      keyOf(err.status, req, err),
    )
    // What the exchange is given; node writes nothing to a closed connection.
    return errorPage(ctx, null, err.status, err.message)
  }
  if (err instanceof HttpError) {
    // A body given with the error is sent like status(code, body, { headers }) would send it.
    if (err.body !== undefined && typeof err.body !== 'string')
      return respond(status(err.status, err.body, { headers: err.headers }), req, ctx)
    return statusPage(
      ctx,
      err.status,
      req,
      group,
      typeof err.body === 'string' ? err.body : undefined,
      undefined,
      err.headers,
    )
  }
  if (isCodedInfrastructure(err)) {
    // Expected under a database outage: one line each, no stack.
    logRequest(
      ctx.log,
      req.facts,
      `${err.status} on ${describe(req)}: ${err.message}`,
      undefined,
      keyOf(err.status, req, err),
    )
    ;(req.facts as Exchange).exception = err
    const retry = err.status === 503 ? { 'retry-after': '1' } : undefined
    return statusPage(
      ctx,
      err.status,
      req,
      group,
      ctx.useStacktrace ? err.message : undefined,
      undefined,
      retry,
      err.code,
    )
  }
  if (isClientFault(err))
    return statusPage(ctx, err.status, req, group, err.expose || ctx.useStacktrace ? err.message : undefined)
  // After the route's deadline answered (deadline.ts), the failure is news but its 500 is never sent.
  if ((req.facts as Exchange).deadline?.expired)
    logRequest(
      ctx.log,
      req.facts,
      `${describe(req)} failed after its deadline's 503 was sent`,
      err,
      keyOf('late', req, err),
    )
  else logRequest(ctx.log, req.facts, `500 on ${describe(req)}`, err, keyOf(500, req, err))
  ;(req.facts as Exchange).exception = err
  const message = ctx.useStacktrace && err instanceof Error ? err.message : undefined
  return statusPage(ctx, 500, req, group, message, err)
}

export async function statusPage(
  ctx: FailureContext,
  status: number,
  req: VelaRequest,
  group: CompiledGroup | undefined,
  message?: string,
  error?: unknown,
  headers?: Readonly<Record<string, string>>,
  code?: string,
): Promise<Response> {
  const custom = group?.statusRoutes.get(status)
  if (custom) {
    try {
      let reply = await custom.handler(req)
      if (isReply(reply) && reply.status === 200) reply = { ...reply, status }
      if (isReply(reply) || reply instanceof Response) return await respond(reply, req, ctx)
      throw new Error(`status route ${status} returned ${String(reply)}, which is not a reply`)
    } catch (err) {
      logRequest(ctx.log, req.facts, `status route ${status} of group ${JSON.stringify(group!.prefix)} failed`, err)
    }
  }
  // `header`, not `headers.get`: on node the event and its web Request are not made for a 404.
  return errorPage(ctx, req.header('accept') ?? null, status, message ?? statusText(status), error, headers, code)
}
