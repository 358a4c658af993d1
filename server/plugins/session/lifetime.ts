/**
 * How long a session lives. Two limits, both carried in the sealed payload, so no server state is
 * needed to enforce them:
 * - idle (`idleTimeout`, default 7 days): counted from the last time the session was re-sealed
 *   (`seenAt`);
 * - absolute (`absoluteTimeout`, default 30 days; `maxAge` is its older name): counted from the
 *   session's start (`createdAt`), whatever the activity. Only a new session (a login through
 *   `renewSession`) starts the count again.
 * A cookie past either limit is an empty session.
 *
 * Sliding: a session in use is re-sealed, moving `seenAt` to now, at most once per tenth of the
 * idle window (16.8 hours with the defaults), not on every request: sealing costs CPU and a
 * Set-Cookie on a page that did not change the session. So a session left alone ends between 90 %
 * and 100 % of the idle window after its last request, never later.
 */
import { VelaError } from '../../errors/vela-error.ts'

const DAY = 24 * 60 * 60

/** Seconds of inactivity after which a session ends, unless the plugin's `idleTimeout` says otherwise. */
export const DEFAULT_IDLE_TIMEOUT = 7 * DAY
/** Seconds after its start at which a session ends, unless `absoluteTimeout` (or `maxAge`) says otherwise. */
export const DEFAULT_ABSOLUTE_TIMEOUT = 30 * DAY
/** The part of the idle window after which a used session is re-sealed with a new `seenAt`. */
export const REFRESH_FRACTION = 0.1

export interface LifetimeOptions {
  idleTimeout?: number
  absoluteTimeout?: number
  maxAge?: number
}

/** The limits in milliseconds. */
export interface Lifetimes {
  readonly idleMs: number
  readonly absoluteMs: number
  /** A session last sealed longer ago than this is re-sealed when it is used. */
  readonly refreshMs: number
}

/** The times a sealed session carries (epoch milliseconds). */
export interface SessionTimes {
  readonly createdAt: number
  readonly seenAt: number
}

function seconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `session: \`${name}\` must be a positive number of seconds (got ${JSON.stringify(value)})`,
    )
  }
  return value
}

/** The plugin options' limits, checked (a config error names a bad one). */
export function lifetimes(options: LifetimeOptions): Lifetimes {
  const absolute =
    options.absoluteTimeout !== undefined
      ? seconds('absoluteTimeout', options.absoluteTimeout, 0)
      : seconds('maxAge', options.maxAge, DEFAULT_ABSOLUTE_TIMEOUT)
  const idle = Math.min(seconds('idleTimeout', options.idleTimeout, DEFAULT_IDLE_TIMEOUT), absolute)
  return { idleMs: idle * 1000, absoluteMs: absolute * 1000, refreshMs: idle * 1000 * REFRESH_FRACTION }
}

/** When a session with these times ends: the earlier of its idle and absolute deadlines. */
export function expiresAt(times: SessionTimes, limits: Lifetimes): number {
  return Math.min(times.seenAt + limits.idleMs, times.createdAt + limits.absoluteMs)
}
