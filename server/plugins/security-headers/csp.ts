/**
 * The Content-Security-Policy of `securityHeaders()`: its default directives, the app's
 * directives merged over them, and the header value, built once at start-up.
 *
 * **Choice:** the defaults allow only the app's own origin for scripts, styles, images, fonts,
 * fetches and form targets, no inline scripts or styles, no plugins (`object-src 'none'`), no
 * framing (`frame-ancestors 'none'`), and `data:` images (CSS sprites, swagger-ui's icons). The
 * playground's pages and the API explorer load under them with no violation (the browser suite
 * checks it). Over https `upgrade-insecure-requests` is added; over plain http it would send
 * the page's own requests to an https port that is not there.
 */
import { VelaError } from '../../errors/vela-error.ts'

/** A directive's sources (`["'self'", 'https://cdn.example']`), `true` for one without (`upgrade-insecure-requests`), `false` to leave it out. */
export type CspDirectiveValue = string | readonly string[] | boolean

/** Directives by CSP name (`'script-src'`) or camelCase (`scriptSrc`). */
export type CspDirectives = Readonly<Record<string, CspDirectiveValue>>

/** `contentSecurityPolicy`: directives merged over the defaults, and whether violations are only reported. */
export interface ContentSecurityPolicyOptions {
  /**
   * Directives merged over the defaults, each replacing the default of that name: `{ 'img-src':
   * ["'self'", 'data:', 'https://images.example'] }`; `false` removes one (`{ 'upgrade-insecure-requests': false }`).
   */
  readonly directives?: CspDirectives
  /** Send `Content-Security-Policy-Report-Only` instead: violations are reported, nothing is blocked (default false). */
  readonly reportOnly?: boolean
}

/** The default directives, as sent over http; over https `upgrade-insecure-requests` is added. */
export const DEFAULT_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
})

const DIRECTIVE_NAME = /^[a-z][a-z-]*$/
// A source may not end the directive (`;`), start another policy (`,`) or hold whitespace or controls.
const BAD_SOURCE = /[;,\s\x00-\x1f\x7f]/

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

function sourcesOf(name: string, value: CspDirectiveValue): readonly string[] | undefined {
  if (value === false) return undefined
  if (value === true) return []
  const list = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value
  if (!Array.isArray(list))
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      `securityHeaders: CSP directive ${name} must be a string, a list of sources, true or false, got ${JSON.stringify(value)}`,
    )
  for (const source of list) {
    if (typeof source !== 'string' || source === '' || BAD_SOURCE.test(source)) {
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `securityHeaders: CSP directive ${name} has the source ${JSON.stringify(source)}; a source is one word without ';', ',' or spaces (quote keywords: "'self'")`,
      )
    }
  }
  return list
}

/** The header's name (report-only or not) and its value over http and over https. */
export function contentSecurityPolicy(options: ContentSecurityPolicyOptions): {
  name: string
  http: string
  https: string
} {
  const merged = new Map<string, readonly string[]>(Object.entries(DEFAULT_CSP_DIRECTIVES))
  const own = options.directives ?? {}
  let upgrade = true
  for (const written of Object.keys(own)) {
    const name = kebab(written)
    if (!DIRECTIVE_NAME.test(name))
      throw new VelaError('VELA_ERR_PLUGIN', `securityHeaders: ${JSON.stringify(written)} is not a CSP directive name`)
    const sources = sourcesOf(name, own[written]!)
    if (name === 'upgrade-insecure-requests') upgrade = sources !== undefined
    else if (sources === undefined) merged.delete(name)
    else merged.set(name, sources)
  }
  const http = [...merged].map(([name, sources]) => (sources.length ? `${name} ${sources.join(' ')}` : name)).join('; ')
  return {
    name: options.reportOnly ? 'content-security-policy-report-only' : 'content-security-policy',
    http,
    https: upgrade ? `${http}; upgrade-insecure-requests` : http,
  }
}
