/**
 * Response checks against the route's contract, in `dev` and `test` only (in any other
 * environment, `prod` included, nothing is compiled and nothing is checked): a JSON reply (`json(…)`,
 * or `status(…)` with an object body) whose status has a schema in the route's `responses`, or a
 * 2xx reply when the route has `validate.response`, is checked against it. On a mismatch:
 *
 * - `dev`: the reply is sent as it is, and the app logs a warning naming the route, the status
 *   and the path of the first mismatch;
 * - `test` (where `vela/testing` runs the app): the request fails with a 500 whose JSON body
 *   names the mismatch, so the test that made it fails.
 *
 * The body is checked as the client receives it: encoded with the app's `jsonLib` and decoded
 * again, so a `Date` is its ISO string (and passes `format: 'date-time'`), `toJSON` has run and
 * `undefined` properties are gone. Routes without a reply schema pay nothing: they get no check.
 * A body the `jsonLib` cannot encode is not checked here; sending it fails as it would anyway.
 *
 * A web `Response` returned by the handler is not checked (its body is a stream).
 */
import type { JsonLib } from '../contracts/primitives.ts'
import type { CompiledRoute } from '../contracts/routes.ts'
import type { Reply } from '../replies.ts'
import { json } from '../replies.ts'
import { firstProblem } from './field-errors.ts'
import type { CheckResult, Validator, Validators } from './validators.ts'

/** `undefined`: send the reply; a reply: send that one instead (the 500 in `test`). */
export type ResponseCheck = (reply: Reply) => Reply | undefined | Promise<Reply | undefined>

/** The environments response checks run in. */
export const CHECKED_ENVIRONMENTS: ReadonlySet<string> = new Set(['dev', 'test'])

const isThenable = <T>(v: T | PromiseLike<T>): v is PromiseLike<T> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

const hasJsonBody = (reply: Reply) =>
  reply.kind === 'json' || (reply.kind === 'status' && reply.body !== undefined && typeof reply.body !== 'string')

/** The route's response check, or `undefined` when it declares no reply schema or the environment checks none. */
export function responseCheck(
  route: CompiledRoute,
  validators: Validators,
  environment: string,
  log: (message: string, error: unknown, key?: string) => void,
  jsonLib: JsonLib,
): ResponseCheck | undefined {
  if (!CHECKED_ENVIRONMENTS.has(environment)) return undefined
  const { responses, validate } = route.options
  const byStatus = new Map<number, Validator>()
  for (const [status, ref] of Object.entries(responses ?? {}))
    if (ref !== null)
      byStatus.set(
        Number(status),
        validators.for(ref, 'reply', `${route.source} (${route.path}): responses[${status}]`),
      )
  const success =
    validate?.response === undefined
      ? undefined
      : validators.for(validate.response, 'reply', `${route.source} (${route.path}): validate.response`)
  if (!byStatus.size && !success) return undefined
  const name = `${route.methods === 'all' ? '' : `${route.methods.join(',')} `}${route.path}`

  const settle = (reply: Reply, r: CheckResult): Reply | undefined => {
    if (!r.errors) return undefined
    const message = `${name} (${route.info.controller}.${route.info.action}) replied ${reply.status} with a body that does not match its schema, ${firstProblem(r.errors)}`
    if (environment === 'test') {
      log(`500: response check failed: ${message}`, undefined, `response check ${name} ${reply.status}`)
      return json({ error: `Response check failed: ${message}` }, { status: 500 })
    }
    log(`warning: response check: ${message}`, undefined, `response check ${name} ${reply.status}`)
    return undefined
  }

  return (reply) => {
    if (!hasJsonBody(reply)) return undefined
    const check = byStatus.get(reply.status) ?? (reply.status >= 200 && reply.status < 300 ? success : undefined)
    if (!check) return undefined
    let sent: unknown
    try {
      sent = jsonLib.decode(jsonLib.encode(reply.body))
    } catch {
      return undefined
    }
    const r = check(sent)
    return isThenable(r) ? Promise.resolve(r).then((done) => settle(reply, done)) : settle(reply, r)
  }
}
