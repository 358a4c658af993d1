/**
 * The client behind reverse proxies (`server.trustProxy`, or `VELA_TRUST_PROXY`): a list of
 * addresses and CIDR subnets (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`). Only a request whose
 * socket peer is in that list has its forwarding headers read; anyone else could write any
 * address there. Those headers: RFC 7239 `Forwarded` (its `for` and `proto`) when the request
 * has one, else `X-Forwarded-For` and `X-Forwarded-Proto`.
 *
 * The client address: the forwarded hops read from the right (each proxy appends the address it
 * saw), skipping the trusted proxies; the first address that is not one is the client. When every
 * hop is trusted, the leftmost. A value that is not an IP address (`for=unknown`, an obfuscated
 * `for=_hidden`) ends the walk: the last trusted hop is the answer, so a garbled header never
 * becomes a rate-limit key. The scheme: the nearest proxy's (`Forwarded`'s last `proto`, else the
 * last value of `X-Forwarded-Proto`), when it is `http` or `https`. IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) are given as IPv4.
 *
 * Nothing here runs per request unless the app sets a list and something reads `req.peer` or
 * `req.scheme`.
 */
import { BlockList, isIP } from 'node:net'
import type { ProxyTrust, RequestFacts } from '../contracts/request.ts'
import { VelaError } from '../errors/vela-error.ts'
import { parseForwarded } from './forwarded-header.ts'

const family = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4')

/** `address` or `address/prefix` as [address, prefix or undefined], or undefined when it is neither. */
function parseEntry(entry: string): [string, number | undefined] | undefined {
  const slash = entry.indexOf('/')
  const address = slash === -1 ? entry : entry.slice(0, slash)
  const kind = isIP(address)
  if (kind === 0) return undefined
  if (slash === -1) return [address, undefined]
  const bits = entry.slice(slash + 1)
  const prefix = Number(bits)
  if (!/^\d+$/.test(bits) || prefix > (kind === 4 ? 32 : 128)) return undefined
  return [address, prefix]
}

/** The list as configured, checked: a VELA_ERR_CONFIG naming `key` for anything that is not an address or a subnet. */
export function trustProxyList(entries: unknown, key: string): readonly string[] {
  if (!Array.isArray(entries)) {
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `${key} must be a list of proxy addresses or CIDR subnets (e.g. ['127.0.0.1', '10.0.0.0/8']), got ${JSON.stringify(entries)}`,
    )
  }
  for (const entry of entries) {
    if (typeof entry !== 'string' || !parseEntry(entry.trim())) {
      throw new VelaError(
        'VELA_ERR_CONFIG',
        `${key}: ${JSON.stringify(entry)} is not an IP address or a CIDR subnet (e.g. '10.0.0.0/8')`,
      )
    }
  }
  return Object.freeze(entries.map((e: string) => e.trim()))
}

/** `VELA_TRUST_PROXY`'s comma-separated list, checked. */
export function trustProxyFromEnv(value: string): readonly string[] {
  return trustProxyList(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    'VELA_TRUST_PROXY',
  )
}

/** The matcher for a checked list; undefined for an empty one (no proxy trusted: nothing to do per request). */
export function proxyTrust(list: readonly string[]): ProxyTrust | undefined {
  if (list.length === 0) return undefined
  const blocks = new BlockList()
  for (const entry of list) {
    const [address, prefix] = parseEntry(entry)!
    if (prefix === undefined) blocks.addAddress(address, family(address))
    else blocks.addSubnet(address, prefix, family(address))
  }
  return { trusts: (address) => isIP(address) !== 0 && blocks.check(address, family(address)) }
}

// A server listening on all interfaces sees IPv4 clients as `::ffff:a.b.c.d`; proxies forward `a.b.c.d`.
const MAPPED = '::ffff:'
/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as IPv4; any other as it is. */
export const plainAddress = (address: string): string =>
  address.startsWith(MAPPED) && isIP(address.slice(MAPPED.length)) === 4 ? address.slice(MAPPED.length) : address
const plain = plainAddress

/**
 * The client's address: the socket peer, or behind trusted proxies the one they forwarded. An
 * IPv4-mapped IPv6 address is given as IPv4, so one client has one address (one rate-limit key)
 * whether it came through the proxy or straight to the socket.
 */
export function clientAddress(facts: RequestFacts, trust: ProxyTrust): string | undefined {
  const peer = facts.peer
  if (peer === undefined) return undefined
  let client = plain(peer)
  if (!trust.trusts(client)) return client
  const hops = forwardedHops(facts)
  if (!hops) return client
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim()
    if (isIP(hop) === 0) return client
    client = plain(hop)
    if (!trust.trusts(client)) return client
  }
  return client
}

/** The scheme the client used: the socket's, or from a trusted proxy its `X-Forwarded-Proto`. */
export function clientScheme(facts: RequestFacts, trust: ProxyTrust): 'http' | 'https' {
  const peer = facts.peer
  if (peer === undefined || !trust.trusts(plain(peer))) return facts.scheme
  const forwarded = facts.header('forwarded')
  let last: string | undefined
  if (forwarded) {
    last = parseForwarded(forwarded).at(-1)?.proto
  } else {
    const proto = facts.header('x-forwarded-proto')
    if (!proto) return facts.scheme
    last = proto
      .slice(proto.lastIndexOf(',') + 1)
      .trim()
      .toLowerCase()
  }
  return last === 'https' || last === 'http' ? last : facts.scheme
}

/** The forwarded hops, left to right: `Forwarded`'s `for` values, else `X-Forwarded-For`'s; undefined with neither. */
function forwardedHops(facts: RequestFacts): string[] | undefined {
  const forwarded = facts.header('forwarded')
  if (forwarded) return parseForwarded(forwarded).map((e) => e.for)
  return facts.header('x-forwarded-for')?.split(',')
}
