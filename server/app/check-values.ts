/**
 * Checks of single config values, each mistake a `VelaError` naming the key and the value it got:
 * used for the server keys (check-config.ts) and a route's WebSocket options (defineWebSocket).
 */
import type { WebSocketOptions } from '../contracts/websocket.ts'
import type { VelaErrorCode } from '../errors/vela-error.ts'
import { VelaError } from '../errors/vela-error.ts'
import { normalOrigin } from '../websocket/origins.ts'

export interface NumberRule {
  test(value: number): boolean
  /** What the value must be, for the message. */
  readonly says: string
}

// Node's timers take at most 2^31 - 1 ms; a larger one fires at once (with a warning).
const MAX_TIMER_MS = 2 ** 31 - 1

export const PORT: NumberRule = {
  test: (v) => Number.isInteger(v) && v >= 0 && v <= 65535,
  says: 'an integer from 0 to 65535',
}
export const BYTES: NumberRule = {
  test: (v) => Number.isSafeInteger(v) && v > 0,
  says: 'a positive whole number of bytes',
}
export const COUNT: NumberRule = { test: (v) => Number.isSafeInteger(v) && v > 0, says: 'a positive whole number' }
export const MILLISECONDS: NumberRule = {
  test: (v) => Number.isInteger(v) && v >= 0 && v <= MAX_TIMER_MS,
  says: `a whole number of milliseconds from 0 (none) to ${MAX_TIMER_MS}`,
}
export const RATE: NumberRule = {
  test: (v) => v >= 0,
  says: 'a number of messages per second, 0 or Infinity for no limit',
}

export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object'
  return String(value)
}

/** Throws a `code` VelaError unless `value` is absent or a number passing `rule`. */
export function checkNumber(code: VelaErrorCode, key: string, value: unknown, rule: NumberRule): void {
  if (value === undefined) return
  if (typeof value !== 'number' || !rule.test(value))
    throw new VelaError(code, `${key} must be ${rule.says}, got ${shown(value)}`)
}

export function checkObject(code: VelaErrorCode, key: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw new VelaError(code, `${key} must be an object, got ${shown(value)}`)
}

/** A WebSocket route's limits and `allowedOrigins` under `prefix` (`server.websocket`, or a route's `defineWebSocket`). */
export function checkWebSocketLimits(code: VelaErrorCode, prefix: string, options: WebSocketOptions | undefined): void {
  checkObject(code, prefix, options)
  checkNumber(code, `${prefix}.maxMessageBytes`, options?.maxMessageBytes, BYTES)
  checkNumber(code, `${prefix}.maxBufferedBytes`, options?.maxBufferedBytes, BYTES)
  checkNumber(code, `${prefix}.maxMessagesPerSecond`, options?.maxMessagesPerSecond, RATE)
  checkNumber(code, `${prefix}.idleTimeout`, options?.idleTimeout, MILLISECONDS)
  checkNumber(code, `${prefix}.closeTimeout`, options?.closeTimeout, MILLISECONDS)
  checkAllowedOrigins(code, `${prefix}.allowedOrigins`, options?.allowedOrigins)
}

/** Throws a `code` VelaError unless `value` is absent, `'*'`, a function, or a list of origins and `'*'`. */
function checkAllowedOrigins(code: VelaErrorCode, key: string, value: unknown): void {
  if (value === undefined || value === '*' || typeof value === 'function') return
  if (!Array.isArray(value))
    throw new VelaError(
      code,
      `${key} must be a list of origins (e.g. ['https://app.example.com']), '*' or a function, got ${shown(value)}`,
    )
  for (const entry of value) {
    if (entry !== '*' && (typeof entry !== 'string' || normalOrigin(entry) === undefined)) {
      throw new VelaError(
        code,
        `${key}: ${typeof entry === 'string' ? JSON.stringify(entry) : shown(entry)} is not an origin (scheme://host[:port], e.g. 'https://app.example.com') or '*'`,
      )
    }
  }
}
