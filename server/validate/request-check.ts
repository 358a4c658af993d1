/**
 * A route's request check, built once per route from its `validate` option and run after the
 * group's pre-request plugins and security, right before the handler:
 *
 * - path parameters, query and headers are checked on copies, their strings coerced to the
 *   schema's types by a JSON Schema (a Standard Schema library is given the strings: coerce with
 *   its own means, such as `z.coerce.number()`);
 * - the body is the one the request plugin decoded (`req.json`), else read here: a JSON body
 *   (`application/json`, `*+json`) or a form (`application/x-www-form-urlencoded`); any other
 *   content type is a 415, an empty or malformed JSON body a 400, no body at all `undefined`
 *   (a 422 when the schema wants an object). Bodies are not coerced.
 *
 * Every part is checked and the problems of all of them answered together: a 422
 * `{ "errors": { "<field path>": ["<message>"] } }`. When all pass, the handler sees the validated
 * values: `req.bindings`, `req.query`, `req.json` and `req.params` (the body; an object body
 * only for `params`). Synchronous unless a body must be read or a Standard Schema library
 * answers with a promise.
 */
import { FORM_TYPE, decodeJsonBody, hasBody, isJsonType, mediaType } from '../body-types.ts'
import type { JsonLib } from '../contracts/primitives.ts'
import type { RouteValidation } from '../contracts/routes.ts'
import { httpError } from '../errors/http-error.ts'
import type { Reply } from '../replies.ts'
import { json } from '../replies.ts'
import type { VelaRequest } from '../request.ts'
import type { FieldErrors } from './field-errors.ts'
import type { CheckResult, Validator, Validators } from './validators.ts'

/** `undefined` lets the request through to the handler; a reply (the 422) answers it. */
export type RequestCheck = (req: VelaRequest) => Reply | undefined | Promise<Reply | undefined>

type Part = 'params' | 'query' | 'headers' | 'body'

interface PartCheck {
  readonly part: Part
  readonly check: Validator
}

const isThenable = <T>(v: T | PromiseLike<T>): v is PromiseLike<T> =>
  typeof (v as { then?: unknown } | null)?.then === 'function'

/** A copy a coercing check may change: strings stay, arrays (repeated query keys) are copied. */
function copyOf(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in record) {
    const v = record[key]
    out[key] = Array.isArray(v) ? v.slice() : v
  }
  return out
}

function headersOf(req: VelaRequest): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of req.headers) out[name] = value
  return out
}

/** The body as the route reads it: decoded by the request plugin, or read here. */
function readBody(req: VelaRequest, jsonLib: JsonLib): unknown {
  if (req.json !== undefined) return req.json
  if (!hasBody(req)) return undefined
  const type = mediaType(req.header('content-type'))
  if (isJsonType(type)) return req.readBody().then((text) => (req.json = decodeJsonBody(text, jsonLib)))
  if (type === FORM_TYPE) return req.readForm()
  throw httpError(
    415,
    `Unsupported Media Type: ${type ? `content type ${type}` : 'a body without a content type'} is not accepted here; send application/json or ${FORM_TYPE}`,
  )
}

/** Puts a part's validated value where the handler reads it. */
function apply(req: VelaRequest, part: Part, value: unknown): void {
  // A readonly property of the request's type, set once here: its type for typed routes is the schema's.
  if (part === 'params') (req as { bindings: unknown }).bindings = value
  else if (part === 'query') req.query = value as Record<string, unknown>
  else if (part === 'body') {
    if (req.json !== undefined || !isFormBody(req)) req.json = value
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      req.params = value as Record<string, unknown>
  }
  // Headers are checked only: `req.headers` stays the request's own.
}

const isFormBody = (req: VelaRequest) => mediaType(req.header('content-type')) === FORM_TYPE

/** The route's check, or `undefined` when it validates nothing of the request. */
export function requestCheck(
  validation: RouteValidation | undefined,
  validators: Validators,
  where: string,
  jsonLib: JsonLib,
): RequestCheck | undefined {
  if (!validation) return undefined
  const checks: PartCheck[] = []
  for (const part of ['params', 'query', 'headers', 'body'] as const) {
    const ref = validation[part]
    if (ref !== undefined)
      checks.push({
        part,
        check: validators.for(ref, part === 'body' ? 'body' : 'input', `${where}: validate.${part}`),
      })
  }
  if (!checks.length) return undefined

  function partValue(req: VelaRequest, part: Part): unknown {
    if (part === 'params') return copyOf(req.bindings)
    if (part === 'query') return copyOf(req.query)
    if (part === 'headers') return headersOf(req)
    return readBody(req, jsonLib)
  }

  function verdict(req: VelaRequest, results: readonly CheckResult[]): Reply | undefined {
    let errors: FieldErrors | undefined
    for (const r of results) if (r.errors) errors = { ...errors, ...mergeable(errors, r.errors) }
    if (errors) return json({ errors }, { status: 422 })
    results.forEach((r, i) => apply(req, checks[i]!.part, r.value))
    return undefined
  }

  return (req) => {
    const results: (CheckResult | Promise<CheckResult>)[] = []
    let pending = false
    for (const { part, check } of checks) {
      const value = partValue(req, part)
      const result = isThenable(value)
        ? Promise.resolve(value).then(check)
        : value === undefined
          ? missing(check(value))
          : check(value)
      if (isThenable(result)) pending = true
      results.push(result)
    }
    return pending ? Promise.all(results).then((all) => verdict(req, all)) : verdict(req, results as CheckResult[])
  }
}

/** A request without a body, where the schema wants one: one error on the body itself. */
function missing(result: CheckResult | Promise<CheckResult>): CheckResult | Promise<CheckResult> {
  const settle = (r: CheckResult): CheckResult => (r.errors ? { errors: { '': [MISSING_BODY] } } : r)
  return isThenable(result) ? result.then(settle) : settle(result)
}

/** The error of a request without a body on a route whose body schema fails on none, under the path `""`. */
export const MISSING_BODY = 'a request body is required'

/** Messages of a later part for a path an earlier part already has are appended, not lost. */
function mergeable(into: FieldErrors | undefined, more: FieldErrors): FieldErrors {
  if (!into) return more
  const out: FieldErrors = {}
  for (const [path, messages] of Object.entries(more))
    out[path] = [...(into[path] ?? []), ...messages.filter((m) => !into[path]?.includes(m))]
  return out
}
