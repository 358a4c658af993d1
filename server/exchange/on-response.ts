/**
 * The app's `onResponse` hooks, run where a reply is sent (the exchanges' `send`: node's write,
 * `app.fetch`'s Response, an upgrade's decision), so they see every reply whoever produced it:
 * routes, plugins, security callbacks, routing's 400 / 404 / 405 / 414, error pages, health
 * endpoints, a handler deadline's 503, a stream handler's 500.
 *
 * Cheap on the direct node path: an encoded reply keeps its plain header object (a hook's
 * `setDefaults` is one object spread, the defaults first so the reply's own headers win) and is
 * written by node's `writeHead` as before; no web `Response` is made. A `Response` has its
 * headers changed in place, or copied when they are immutable (`fetch()`'s, `Response.redirect`).
 */
import type { RequestFacts, RouteInfo, ProxyTrust } from '../contracts/request.ts'
import type { OutgoingResponse, ResponseHook } from '../contracts/response.ts'
import { logRequest } from '../app/request-log.ts'
import type { EncodedReply, Outcome } from '../respond.ts'
import { userHeader, writableResponse } from '../respond.ts'
import { clientScheme } from './forwarded.ts'

/** What the hooks are told about the request: its facts and where it was routed (an exchange). */
export interface RoutedFacts extends RequestFacts {
  readonly route: RouteInfo | undefined
}

/** The app's hooks compiled: the outcome as it is to be sent, once every hook has seen it. */
export type FinishResponse = (outcome: Outcome, x: RoutedFacts) => Outcome

type Log = (message: string, error: unknown, key?: string, request?: RequestFacts) => void

/** The header sets a hook that only sets defaults gives to `setDefaults`, by the request's scheme. */
export interface DefaultHeaderSets {
  readonly http: Readonly<Record<string, string>>
  readonly https: Readonly<Record<string, string>>
}

const DEFAULT_SETS = Symbol('vela.defaultHeaderSets')

/**
 * Marks `hook` as one that does nothing but `setDefaults(scheme === 'https' ? sets.https :
 * sets.http)` (`securityHeaders`): an app whose only hook it is has those defaults merged by the
 * node exchange as it merges the id header (`responseDefaults`), with no hook call, copy of the
 * reply or second header object per request. The hook still works as written wherever it is called.
 */
export function defaultsOnlyHook(hook: ResponseHook, sets: DefaultHeaderSets): ResponseHook {
  checkDefaults(sets.http)
  checkDefaults(sets.https)
  return Object.assign(hook, { [DEFAULT_SETS]: sets })
}

/** The defaults a reply gets from the app's hooks, by request; undefined unless the hooks are one `defaultsOnlyHook`. */
export type ResponseDefaults = (x: RoutedFacts) => Readonly<Record<string, string>>

/** The app's hooks as `ResponseDefaults`, when they are one hook that only sets defaults. */
export function responseDefaults(
  hooks: readonly ResponseHook[],
  proxies: ProxyTrust | undefined,
): ResponseDefaults | undefined {
  const sets = hooks.length === 1 ? (hooks[0] as { [DEFAULT_SETS]?: DefaultHeaderSets })[DEFAULT_SETS] : undefined
  if (sets === undefined) return undefined
  const { http, https } = sets
  // The scheme as the hook's `response.scheme` reads it.
  return proxies
    ? (x) => (clientScheme(x, proxies) === 'https' ? https : http)
    : (x) => (x.scheme === 'https' ? https : http)
}

/** The hooks as one step; undefined when the app has none (the exchanges then do nothing). */
export function responseHooks(
  hooks: readonly ResponseHook[],
  proxies: ProxyTrust | undefined,
  log: Log,
): FinishResponse | undefined {
  if (hooks.length === 0) return undefined
  return function finishResponse(outcome, x) {
    const out = new Outgoing(outcome, x, proxies)
    for (const hook of hooks) {
      try {
        hook(out)
      } catch (err) {
        logRequest(
          log,
          x,
          `onResponse hook ${hook.name || '(anonymous)'} failed on ${x.method} ${x.path}`,
          err,
          `onResponse hook ${hook.name} failed`,
        )
      }
    }
    return out.outcome()
  }
}

// Default sets already checked (lowercase names, values a header can carry): checked once each.
// The last one seen is compared first: an app gives the same one or two sets to every reply.
const checkedDefaults = new WeakSet<object>()
let lastChecked: object | undefined

function checkDefaults(headers: Readonly<Record<string, string>>): void {
  if (headers === lastChecked) return
  if (checkedDefaults.has(headers)) {
    lastChecked = headers
    return
  }
  for (const name in headers) {
    if (name !== name.toLowerCase())
      throw new TypeError(`setDefaults: header name ${JSON.stringify(name)} must be lowercase`)
    userHeader(name, headers[name]!)
  }
  checkedDefaults.add(headers)
  lastChecked = headers
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})

/** One reply, over the encoded reply's header object or the Response's `Headers`. */
class Outgoing implements OutgoingResponse {
  readonly status: number
  readonly request: RoutedFacts
  readonly #proxies: ProxyTrust | undefined
  readonly #encoded: EncodedReply | undefined
  /** The encoded reply's headers; copied before the first change (they may be shared constants). */
  #record: Record<string, string> | undefined
  #copied = false
  #response: Response | undefined
  /** The Response's headers once known to be mutable. */
  #writable: Headers | undefined = undefined

  constructor(outcome: Outcome, facts: RoutedFacts, proxies: ProxyTrust | undefined) {
    this.status = outcome.status
    this.request = facts
    this.#proxies = proxies
    if (outcome instanceof Response) this.#response = outcome
    else {
      this.#encoded = outcome
      this.#record = (outcome.headers ?? NO_HEADERS) as Record<string, string>
    }
  }

  get route(): RouteInfo | undefined {
    return this.request.route
  }

  get scheme(): 'http' | 'https' {
    const proxies = this.#proxies
    return proxies ? clientScheme(this.request, proxies) : this.request.scheme
  }

  header(name: string): string | undefined {
    const key = name.toLowerCase()
    return this.#record ? this.#record[key] : (this.#response!.headers.get(key) ?? undefined)
  }

  headerEntries(): [string, string][] {
    const record = this.#record
    if (record) return Object.entries(record)
    const headers = this.#response!.headers
    const entries: [string, string][] = []
    for (const [name, value] of headers) if (name !== 'set-cookie') entries.push([name, value])
    for (const cookie of headers.getSetCookie()) entries.push(['set-cookie', cookie])
    return entries
  }

  setHeader(name: string, value: string): void {
    const key = name.toLowerCase()
    userHeader(key, value)
    if (this.#record) this.#own()[key] = value
    else this.#headers().set(key, value)
  }

  removeHeader(name: string): void {
    const key = name.toLowerCase()
    if (this.#record) {
      if (key in this.#record) delete this.#own()[key]
    } else this.#headers().delete(key)
  }

  setDefaults(defaults: Readonly<Record<string, string>>): void {
    checkDefaults(defaults)
    const record = this.#record
    if (record) {
      if (!this.#copied) {
        this.#record = { ...defaults, ...record }
        this.#copied = true
      } else for (const name in defaults) if (!(name in record)) record[name] = defaults[name]!
      return
    }
    const headers = this.#headers()
    for (const name in defaults) if (!headers.has(name)) headers.set(name, defaults[name]!)
  }

  /** What is sent: the encoded reply with its new headers, or the (possibly copied) Response. */
  outcome(): Outcome {
    const encoded = this.#encoded
    if (!encoded) return this.#response!
    return this.#copied ? { status: encoded.status, headers: this.#record, body: encoded.body } : encoded
  }

  #own(): Record<string, string> {
    if (!this.#copied) {
      this.#record = { ...this.#record }
      this.#copied = true
    }
    return this.#record!
  }

  /** The Response's headers, made mutable: a Response whose headers are immutable is copied once. */
  #headers(): Headers {
    if (this.#writable) return this.#writable
    const res = (this.#response = writableResponse(this.#response!))
    return (this.#writable = res.headers)
  }
}
