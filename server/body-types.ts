/**
 * What kind of body a request carries, and JSON bodies decoded the one way Vela decodes them:
 * shared by the request plugin and route validation, so both answer an empty or malformed JSON
 * body with the same 400.
 */
import type { JsonLib } from './contracts/primitives.ts'
import { httpError } from './errors/http-error.ts'
import type { VelaRequest } from './request.ts'
import { dropUnsafeKeys, jsonMayHaveUnsafeKeys } from './unsafe-keys.ts'

/** Whether the request has a body to read (its framing says so). */
export function hasBody(req: VelaRequest): boolean {
  const len = req.header('content-length')
  if ((len !== undefined && len !== '0') || req.header('transfer-encoding') !== undefined) return true
  // A web Request (app.fetch, other runtimes) may carry a body without either header.
  return len === undefined && req.nodeRequest === undefined && req.event.req.body !== null
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return ''
  const semi = contentType.indexOf(';')
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
}

/** `application/json` and the `+json` types (`application/merge-patch+json`). */
export const isJsonType = (type: string): boolean => type === 'application/json' || type.endsWith('+json')

export const FORM_TYPE = 'application/x-www-form-urlencoded'

export const EMPTY_JSON = 'Bad Request: the JSON body is empty'

/** Decodes a JSON body (a 400 when empty or malformed), without `__proto__`, `constructor` and `prototype` keys. */
export function decodeJsonBody(text: string, jsonLib: JsonLib): unknown {
  let value: unknown
  try {
    value = jsonLib.decode(text)
  } catch (err) {
    if (text.trim() === '') throw httpError(400, EMPTY_JSON)
    throw httpError(400, `Bad Request: malformed JSON body (${err instanceof Error ? err.message : String(err)})`)
  }
  if (jsonMayHaveUnsafeKeys(text)) dropUnsafeKeys(value)
  return value
}
