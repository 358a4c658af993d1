/**
 * `securityHeaders(options)`: the browser security headers on every reply of the app, error pages,
 * redirects, static files and health endpoints included. It is an `onResponse` hook (set on the
 * app, so groups with their own plugin lists keep it); the header set is built once, in an http
 * and an https variant, and merged into each reply as it is written. A header the handler (or a
 * plugin) set itself wins.
 *
 * Defaults, as helmet sends them except where said:
 *
 *   content-security-policy            default-src 'self'; … frame-ancestors 'none' (csp.ts)
 *   cross-origin-opener-policy         same-origin
 *   cross-origin-resource-policy       same-origin
 *   origin-agent-cluster               ?1
 *   referrer-policy                    strict-origin-when-cross-origin
 *   strict-transport-security          max-age=31536000; includeSubDomains   (https only)
 *   x-content-type-options             nosniff
 *   x-frame-options                    DENY
 *
 * and on request (`true`, or a value): `x-dns-prefetch-control: off`,
 * `x-permitted-cross-domain-policies: none`, `x-xss-protection: 0`.
 *
 * **Choice:** `Referrer-Policy: strict-origin-when-cross-origin`, not helmet's `no-referrer`:
 * with `no-referrer` browsers send `Origin: null` on a same-origin form POST, which defeats CSRF
 * and Origin checks that compare it with the app's own origin, and drops the referrer the app's
 * own analytics rely on; other origins still get only the origin (never the path or
 * query), and nothing when https links to http. `X-Frame-Options: DENY` (helmet: SAMEORIGIN)
 * matches `frame-ancestors 'none'` for browsers that know only the older header.
 *
 * **Choice:** three of helmet's headers are off unless asked for. Each header costs every reply
 * node's validation and serialisation (0.1–0.3 µs measured), and these protect little today: the XSS
 * filter `x-xss-protection: 0` turns off is gone from browsers, the cross-domain policies are
 * Flash's and old Acrobat's, and turning DNS prefetching off trades the speed of the app's own
 * links for a privacy gain most apps do not need.
 *
 * HTTPS is the request's scheme as `req.scheme` gives it: the socket's, or behind a proxy listed
 * in `server.trustProxy` its `X-Forwarded-Proto`.
 */
import type { OutgoingResponse, ResponseHook } from '../../contracts/response.ts'
import { VelaError } from '../../errors/vela-error.ts'
import { defaultsOnlyHook } from '../../exchange/on-response.ts'
import type { ContentSecurityPolicyOptions } from './csp.ts'
import { contentSecurityPolicy } from './csp.ts'

export type { ContentSecurityPolicyOptions, CspDirectiveValue, CspDirectives } from './csp.ts'

/** `strictTransportSecurity`: how long and for which hosts browsers keep to https. */
export interface StrictTransportSecurityOptions {
  /** Seconds browsers keep to https (default 31536000, a year). */
  readonly maxAge?: number
  /** Subdomains too (default true). */
  readonly includeSubDomains?: boolean
  /** Ask to be on browsers' preload list (default false; read hstspreload.org first). */
  readonly preload?: boolean
}

/** A `Referrer-Policy` value (`referrerPolicy`). */
export type ReferrerPolicyValue =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url'

/** Options of `securityHeaders`: for each header its own value, or `false` to leave it out. */
export interface SecurityHeadersOptions {
  /** Directives merged over the defaults (csp.ts), report-only, or `false`. */
  readonly contentSecurityPolicy?: false | ContentSecurityPolicyOptions
  /** Sent only over https; `false` for never. */
  readonly strictTransportSecurity?: false | StrictTransportSecurityOptions
  /** Default `DENY`. */
  readonly xFrameOptions?: false | 'DENY' | 'SAMEORIGIN'
  /** Default `strict-origin-when-cross-origin`; a list is a fallback chain for older browsers. */
  readonly referrerPolicy?: false | ReferrerPolicyValue | readonly ReferrerPolicyValue[]
  /** Default `same-origin`. */
  readonly crossOriginOpenerPolicy?:
    | false
    | 'same-origin'
    | 'same-origin-allow-popups'
    | 'noopener-allow-popups'
    | 'unsafe-none'
  /** Default `same-origin`: other sites cannot embed the app's responses (images, scripts); CORS requests are not affected. */
  readonly crossOriginResourcePolicy?: false | 'same-origin' | 'same-site' | 'cross-origin'
  /** `Origin-Agent-Cluster: ?1` (default true). */
  readonly originAgentCluster?: boolean
  /** `X-Content-Type-Options: nosniff` (default true). */
  readonly xContentTypeOptions?: boolean
  /** Off by default; `true` sends `off`. */
  readonly xDnsPrefetchControl?: boolean | 'off' | 'on'
  /** Off by default (Flash and old Acrobat read it); `true` sends `none`. */
  readonly xPermittedCrossDomainPolicies?: boolean | 'none' | 'master-only' | 'by-content-type' | 'all'
  /** `X-XSS-Protection: 0`, turning off old browsers' XSS filter (itself a source of leaks); off by default, `true` sends it. */
  readonly xXssProtection?: boolean
}

type Option = keyof SecurityHeadersOptions

/**
 * The header each simple option sets, its value for `true`, the other values it may take, and
 * whether it is sent when the option is left out.
 */
const SIMPLE: Readonly<
  Record<
    Exclude<Option, 'contentSecurityPolicy' | 'strictTransportSecurity' | 'referrerPolicy'>,
    readonly [header: string, fallback: string, allowed: readonly string[], byDefault: boolean]
  >
> = {
  xFrameOptions: ['x-frame-options', 'DENY', ['DENY', 'SAMEORIGIN'], true],
  crossOriginOpenerPolicy: [
    'cross-origin-opener-policy',
    'same-origin',
    ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'],
    true,
  ],
  crossOriginResourcePolicy: [
    'cross-origin-resource-policy',
    'same-origin',
    ['same-origin', 'same-site', 'cross-origin'],
    true,
  ],
  originAgentCluster: ['origin-agent-cluster', '?1', [], true],
  xContentTypeOptions: ['x-content-type-options', 'nosniff', [], true],
  xDnsPrefetchControl: ['x-dns-prefetch-control', 'off', ['off', 'on'], false],
  xPermittedCrossDomainPolicies: [
    'x-permitted-cross-domain-policies',
    'none',
    ['none', 'master-only', 'by-content-type', 'all'],
    false,
  ],
  xXssProtection: ['x-xss-protection', '0', [], false],
}

const REFERRER_POLICIES: readonly string[] = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]

const OPTIONS = new Set<string>([
  ...Object.keys(SIMPLE),
  'contentSecurityPolicy',
  'strictTransportSecurity',
  'referrerPolicy',
])

const invalid = (option: string, value: unknown, expected: string) =>
  new VelaError('VELA_ERR_PLUGIN', `securityHeaders: ${option} must be ${expected}, got ${JSON.stringify(value)}`)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function referrerPolicy(value: unknown): string {
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0 || list.some((v) => !REFERRER_POLICIES.includes(v)))
    throw invalid('referrerPolicy', value, `false, one of ${REFERRER_POLICIES.join(', ')} or a list of them`)
  return list.join(', ')
}

function strictTransportSecurity(value: unknown): string {
  if (!isObject(value))
    throw invalid('strictTransportSecurity', value, 'false or { maxAge, includeSubDomains, preload }')
  const { maxAge = 31_536_000, includeSubDomains = true, preload = false } = value as StrictTransportSecurityOptions
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw invalid('strictTransportSecurity.maxAge', maxAge, 'a whole number of seconds')
  return `max-age=${maxAge}${includeSubDomains ? '; includeSubDomains' : ''}${preload ? '; preload' : ''}`
}

/** The headers to send over http and over https, each a frozen object built once. */
export function securityHeaderSets(options: SecurityHeadersOptions = {}): {
  http: Readonly<Record<string, string>>
  https: Readonly<Record<string, string>>
} {
  if (!isObject(options)) throw invalid('options', options, 'an object')
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key))
      throw new VelaError(
        'VELA_ERR_PLUGIN',
        `securityHeaders: unknown option ${JSON.stringify(key)}; options are ${[...OPTIONS].join(', ')}`,
      )
  }
  const http: Record<string, string> = {}
  const https: Record<string, string> = {}
  const csp = options.contentSecurityPolicy ?? {}
  if (csp !== false) {
    if (!isObject(csp)) throw invalid('contentSecurityPolicy', csp, 'false or { directives, reportOnly }')
    const policy = contentSecurityPolicy(csp)
    http[policy.name] = policy.http
    https[policy.name] = policy.https
  }
  for (const [option, [header, fallback, allowed, byDefault]] of Object.entries(SIMPLE)) {
    const value = options[option as Option] ?? byDefault
    if (value === false) continue
    if (value !== true && !allowed.includes(value as string))
      throw invalid(option, value, ['true', 'false', ...allowed.map((a) => `'${a}'`)].join(', '))
    http[header] = https[header] = value === true ? fallback : (value as string)
  }
  if (options.referrerPolicy !== false)
    http['referrer-policy'] = https['referrer-policy'] = referrerPolicy(
      options.referrerPolicy ?? 'strict-origin-when-cross-origin',
    )
  if (options.strictTransportSecurity !== false)
    https['strict-transport-security'] = strictTransportSecurity(options.strictTransportSecurity ?? {})
  return { http: Object.freeze(http), https: Object.freeze(https) }
}

/**
 * Browser security headers on every reply (an `onResponse` hook): nosniff, no framing, a strict
 * Content-Security-Policy, a referrer policy, cross-origin isolation of the window, and HSTS over
 * https. Each header can be changed or turned off (`false`); CSP directives merge over the
 * defaults. A header the handler set itself wins.
 *
 * @example
 * ```ts
 * import { defineApp, securityHeaders } from 'vela'
 *
 * export default defineApp({
 *   bootstrapApplication: 'shop',
 *   onResponse: [
 *     securityHeaders({
 *       contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:', 'https://images.example'] } },
 *       xFrameOptions: 'SAMEORIGIN',
 *       strictTransportSecurity: { maxAge: 63_072_000, preload: true },
 *     }),
 *   ],
 * })
 * ```
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): ResponseHook {
  const sets = securityHeaderSets(options)
  const { http, https } = sets
  // Marked as setting defaults only: as the app's one hook, node's path merges the set itself.
  return defaultsOnlyHook(function securityHeaders(response: OutgoingResponse): void {
    response.setDefaults(response.scheme === 'https' ? https : http)
  }, sets)
}
