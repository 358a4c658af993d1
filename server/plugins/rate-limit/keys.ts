/**
 * What a rate limiter counts by. A key function reads the request and gives the string its hits
 * are counted under, or `undefined` when this limiter does not count the request at all (another
 * limiter on the route still may). The helpers here cover the usual cases: the client address,
 * a field of the decoded body (an account name), or both together.
 *
 * Each helper also gives its limiter a namespace (`address`, `field:username`,
 * `address+field:username`), so two limiters sharing one store count separately (index.ts).
 */
import { VelaError } from '../../errors/vela-error.ts'
import type { VelaRequest } from '../../request.ts'

/** Gives the key a request is counted under, or `undefined` to leave it uncounted by this limiter. */
export type RateLimitKey = (req: VelaRequest) => string | undefined

const names = new WeakMap<RateLimitKey, string>()

function named(name: string, key: RateLimitKey): RateLimitKey {
  names.set(key, name)
  return key
}

/** The namespace a helper gave its key function; undefined for an app's own function. */
export function keyName(key: RateLimitKey): string | undefined {
  return names.get(key)
}

/**
 * Counts by client address: the socket's, or behind proxies listed in `server.trustProxy` the one
 * they forwarded. The rate-limit plugin's default key.
 *
 * ```ts
 * import { byAddress, rateLimitPlugin, type PluginEntry } from 'vela'
 *
 * export const limited: PluginEntry[] = [rateLimitPlugin({ key: byAddress, maxRequests: 100 })]
 * ```
 */
export const byAddress: RateLimitKey = named('address', (req) => req.peer)

function hasUnreadBody(req: VelaRequest): boolean {
  if (req.body !== undefined) return false
  const length = req.header('content-length')
  return (length !== undefined && length !== '0') || req.header('transfer-encoding') !== undefined
}

function fieldValue(req: VelaRequest, field: string): string | undefined {
  const value = Object.hasOwn(req.params, field) ? req.params[field] : undefined
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number') return String(value)
  // Absent: fine when there is no body, a mistake in the plugin list when the body was never read.
  if (value === undefined && hasUnreadBody(req)) {
    throw new VelaError(
      'VELA_ERR_PLUGIN',
      `rate-limit plugin: the key byField('${field}') ran before the request body was decoded; list the request plugin (urlencoded or json) before this rate limiter`,
    )
  }
  return undefined
}

/**
 * Counts by one field of the decoded body (`req.params`), such as the account a login names,
 * whatever address the attempts come from. A request without that field, or with a value that is
 * not a non-empty string or a number, is not counted by this limiter. The body must be decoded
 * first: list the request plugin before this limiter (running before it is a 500 naming the
 * mistake, never a limiter that silently counts nothing).
 *
 * @example
 * ```ts
 * import { byAddress, byField, rateLimitPlugin, requestPlugin, type PluginEntry } from 'vela'
 *
 * export const login: PluginEntry[] = [
 *   rateLimitPlugin({ key: byAddress }),
 *   requestPlugin({ urlencoded: true }),
 *   rateLimitPlugin({ key: byField('username'), maxRequests: 10, windowMs: 15 * 60_000 }),
 * ]
 * ```
 */
export function byField(field: string): RateLimitKey {
  return named(`field:${field}`, (req) => fieldValue(req, field))
}

/**
 * Counts by client address and a body field together: one client's attempts at one account.
 * Not counted when the field is missing (as `byField`).
 *
 * @example
 * ```ts
 * import { byAddressAndField, rateLimitPlugin, requestPlugin, type PluginEntry } from 'vela'
 *
 * export const login: PluginEntry[] = [
 *   requestPlugin({ urlencoded: true }),
 *   rateLimitPlugin({ key: byAddressAndField('username'), maxRequests: 5 }),
 * ]
 * ```
 */
export function byAddressAndField(field: string): RateLimitKey {
  return named(`address+field:${field}`, (req) => {
    const value = fieldValue(req, field)
    return value === undefined ? undefined : `${req.peer} ${value}`
  })
}
