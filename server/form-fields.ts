/**
 * URL-encoded fields (form bodies, query strings) under a cap on their number, `server.maxFields`
 * (default 1,000, as `qs`'s `parameterLimit`). A client decides how many fields it sends, and each
 * one costs the server an entry; counting first, with a scan that stops at the cap, keeps a
 * many-field body from costing more than the bytes it carries, and refuses it before any field is
 * decoded. Parsing is linear: a repeated field is pushed onto its array, never copied into a new one.
 *
 * **Choice:** one app-level limit, like `server.bodyLimit`, rather than a request plugin option:
 * `req.query` is parsed without any plugin, and a form read by a handler (`req.readForm()`) gets
 * the same cap as one the plugin reads. Over it, a form is a 413 and a query string a 414, each
 * naming the limit. Imports nothing but the error and unsafe-key helpers.
 */
import { httpError } from './errors/http-error.ts'
import { isUnsafeKey } from './unsafe-keys.ts'

/** Fields a form body or query string may have unless `server.maxFields` says otherwise. */
export const DEFAULT_MAX_FIELDS = 1000

/**
 * Whether `text` (`a=1&b=2`) from index `from` (1 past a query's `?`) has more than `max` fields:
 * non-empty pieces between `&`s, as URL parsers count them. Stops at the first field over the cap; text too short
 * to hold that many fields (each takes a character and a separator) is not scanned at all.
 */
export function hasMoreFields(text: string, max: number, from = 0): boolean {
  if (text.length - from <= 2 * max) return false
  let count = 0
  let start = from
  const end = text.length
  while (start < end) {
    let amp = text.indexOf('&', start)
    if (amp === -1) amp = end
    if (amp > start && ++count > max) return true
    start = amp + 1
  }
  return false
}

/** The 413 for a form body over the cap. */
export const tooManyFormFields = (max: number) =>
  httpError(413, `Payload Too Large: the form has more than ${max} fields`)

/** The 414 for a query string over the cap. */
export const tooManyQueryFields = (max: number) =>
  httpError(414, `URI Too Long: the query string has more than ${max} fields`)

/**
 * A URL-encoded form body as fields: a repeated field gives an array (in order); `__proto__`,
 * `constructor` and `prototype` are dropped. More than `maxFields` fields is a 413 `HttpError`.
 */
export function formFields(text: string, maxFields: number): Record<string, string | string[]> {
  if (hasMoreFields(text, maxFields)) throw tooManyFormFields(maxFields)
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of new URLSearchParams(text)) {
    if (isUnsafeKey(k)) continue
    // Own keys only: `toString=1` is a field, not Object.prototype's method.
    const prev = Object.hasOwn(out, k) ? out[k] : undefined
    if (prev === undefined) out[k] = v
    else if (Array.isArray(prev)) prev.push(v)
    else out[k] = [prev, v]
  }
  return out
}
