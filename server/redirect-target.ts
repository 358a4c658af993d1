/**
 * What `redirect()` puts in `Location`. A header value must be ASCII without control characters,
 * so the target is percent-encoded: every character outside RFC 3986's unreserved and reserved
 * sets becomes its UTF-8 `%XX` bytes (`€` → `%E2%82%AC`, a space → `%20`, `\` → `%5C`), while a
 * valid `%XX` escape is kept as it is (never `%25XX`) and a lone `%` becomes `%25`.
 *
 * Control characters (CR, LF, tab, NUL, DEL: anything below U+0020 and U+007F) are refused: no
 * encoding of them is what the app meant, and a CR/LF in a target is the shape of a header
 * injection. Without a check option that is a `TypeError` from `redirect()` (the handler's 500,
 * logged); with one (`localOnly`, `allowHosts`) the target is treated as the untrusted input it
 * is declared to be and replaced by the fallback, like any other target that fails the check.
 *
 * The check against open redirects: a *local* target is a path on this site, `/…` but not `//…`
 * or `/\…` (both are another host to a browser); `allowHosts` also admits absolute `http(s)` URLs
 * whose host (`name` or `name:port`) is listed, sent as the URL parser serialises them, so what
 * was checked is what the browser reads. Imports nothing.
 */

/** A redirect's status: 301, 302 (the default), 303, 307 or 308. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308

/**
 * Options of `redirect(to, options)`: the status, extra headers, and the check against open
 * redirects for an untrusted target.
 */
export interface RedirectOptions {
  /** The status: 302 unless given. */
  status?: RedirectStatus
  /** Extra response headers (`cache-control`…); `location` is always the checked target. */
  headers?: Readonly<Record<string, string>>
  /** The target is untrusted: only a path on this site (`/…`, not `//…` or `/\…`) is followed. */
  localOnly?: boolean
  /**
   * Like `localOnly`, and absolute `http(s)` URLs on these hosts too: `'accounts.example.com'`
   * (any port) or `'example.com:8443'` (that port only).
   */
  allowHosts?: readonly string[]
  /** Where a target that fails the check goes instead (default `'/'`). */
  fallback?: string
}

/** Characters a `Location` value may carry as they are, and valid escapes. */
const KEPT = /^(?:[\w\-.~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/
/** One character (or lone `%`) to encode: a code point outside the kept set, or `%` not starting an escape. */
const TO_ENCODE = /%(?![0-9A-Fa-f]{2})|[^\w\-.~:/?#[\]@!$&'()*+,;=%]/gu
const CONTROL = /[\u0000-\u001f\u007f]/

/** One character's UTF-8 escapes; a lone surrogate has no UTF-8 form: U+FFFD, as a browser's URL parser does. */
function escapeChar(c: string): string {
  try {
    return encodeURIComponent(c)
  } catch {
    return '%EF%BF%BD'
  }
}

/** The target percent-encoded for a header; assumes no control characters. */
function encodeTarget(target: string): string {
  return KEPT.test(target) ? target : target.replace(TO_ENCODE, escapeChar)
}

/** A path on this site: one leading `/` not followed by another `/` or `\`. */
function isLocalTarget(target: string): boolean {
  return target.charCodeAt(0) === 0x2f && target[1] !== '/' && target[1] !== '\\' && !CONTROL.test(target)
}

/** An absolute http(s) URL on one of `hosts`, serialised; `undefined` otherwise. */
function allowedAbsolute(target: string, hosts: readonly string[]): string | undefined {
  if (hosts.length === 0 || CONTROL.test(target) || !URL.canParse(target)) return undefined
  const url = new URL(target)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const listed = hosts.some((h) => {
    const host = hostOf(h)
    return host === url.host || host === url.hostname
  })
  return listed ? url.href : undefined
}

/** A listed host as the URL parser writes hosts: lowercase, punycode (`bücher.example` → `xn--bcher-kva.example`). */
const hostOf = (listed: string) =>
  URL.canParse(`http://${listed}`) ? new URL(`http://${listed}`).host : listed.toLowerCase()

const shown = (target: string) => JSON.stringify(target.length > 80 ? `${target.slice(0, 80)}…` : target)

/** The `Location` value for `target` under `options`; throws a TypeError for an unusable unchecked target. */
export function locationFor(target: unknown, options: RedirectOptions | undefined): string {
  const checked = options !== undefined && (options.localOnly === true || options.allowHosts !== undefined)
  if (checked) {
    if (typeof target === 'string') {
      if (isLocalTarget(target)) return encodeTarget(target)
      const absolute = allowedAbsolute(target, options.allowHosts ?? [])
      if (absolute !== undefined) return absolute
    }
    return locationFor(options.fallback ?? '/', undefined)
  }
  if (typeof target !== 'string')
    throw new TypeError(`redirect(): the target must be a string, got ${target === null ? 'null' : typeof target}`)
  if (CONTROL.test(target)) {
    throw new TypeError(
      `redirect(): the target ${shown(target)} contains a control character (CR, LF or another), refused to prevent header injection; ` +
        'a target taken from the request needs redirect(to, { localOnly: true })',
    )
  }
  return encodeTarget(target)
}
