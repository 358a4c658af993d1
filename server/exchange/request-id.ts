/**
 * Request ids (`req.id`, `server.requestId`). A request from a proxy listed in `server.trustProxy`
 * keeps the id that proxy sent (`x-request-id`), when it is a sane one: 1 to 128 characters of
 * letters, digits and `-_.:+=/@`, so it can go into a header and a log line as it is. Anyone else
 * could write anything there, so every other request gets a generated id.
 *
 * **Choice:** generated ids are a per-process random prefix and a counter (`Zk3x9Qa1-1f`), unique
 * across the workers and restarts of an app (each process draws its prefix) and about six times
 * cheaper than `crypto.randomUUID()`; they are correlation ids, not secrets.
 */
import { randomBytes } from 'node:crypto'
import type { RequestIdConfig } from '../contracts/config.ts'
import type { ProxyTrust, RequestFacts } from '../contracts/request.ts'
import { VelaError } from '../errors/vela-error.ts'
import { plainAddress } from './forwarded.ts'

/** The default header, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id'

const SANE = /^[\w.:+=/@-]{1,128}$/
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/

const prefix = `${randomBytes(6).toString('base64url')}-`
let counter = 0

/** A new id, unique in this process and (by its random prefix) across processes. */
export function generateRequestId(): string {
  return prefix + (++counter).toString(36)
}

/** How the app's requests get their id, compiled once at start-up. */
export interface RequestIds {
  /** The header the id is sent back in (lowercase); undefined when `server.requestId` is `false`. */
  readonly header: string | undefined
  /** The id of a request: a trusted proxy's, or a generated one. */
  idOf(facts: RequestFacts): string
}

/** The ids of an app without a config (an exchange no entry point set up): generated, not sent. */
export const GENERATED_IDS: RequestIds = { header: undefined, idOf: generateRequestId }

/** `server.requestId` over the app's trusted proxies. */
export function requestIds(config: Required<RequestIdConfig> | false, proxies: ProxyTrust | undefined): RequestIds {
  if (config === false) return GENERATED_IDS
  const { header, trustIncoming } = config
  if (!trustIncoming || proxies === undefined) return { header, idOf: generateRequestId }
  return {
    header,
    idOf(facts) {
      const peer = facts.peer
      if (peer === undefined || !proxies.trusts(plainAddress(peer))) return generateRequestId()
      const sent = facts.header(header)
      return sent !== undefined && SANE.test(sent) ? sent : generateRequestId()
    },
  }
}

/** `server.requestId` as written, checked and with its defaults. */
export function resolveRequestId(value: unknown): Required<RequestIdConfig> | false {
  if (value === false) return false
  if (value === undefined) return { header: REQUEST_ID_HEADER, trustIncoming: true }
  const code = 'VELA_ERR_CONFIG'
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VelaError(
      code,
      `server.requestId must be { header?, trustIncoming? } or false, got ${JSON.stringify(value) ?? typeof value}`,
    )
  }
  const { header = REQUEST_ID_HEADER, trustIncoming = true } = value as RequestIdConfig
  if (typeof header !== 'string' || !HEADER_NAME.test(header.toLowerCase())) {
    throw new VelaError(
      code,
      `server.requestId.header must be an HTTP header name such as 'x-request-id', got ${JSON.stringify(header)}`,
    )
  }
  if (typeof trustIncoming !== 'boolean')
    throw new VelaError(
      code,
      `server.requestId.trustIncoming must be true or false, got ${JSON.stringify(trustIncoming)}`,
    )
  return { header: header.toLowerCase(), trustIncoming }
}
