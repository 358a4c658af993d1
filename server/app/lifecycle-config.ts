/**
 * The config keys of the app's life around requests: the health endpoints (`server.health`) and
 * shutdown (`server.drainDelay`, `server.shutdownTimeout`), resolved and checked here so a mistake
 * is a `VELA_ERR_CONFIG` naming the key when the app is created, before any start hook runs.
 */
import type { HealthConfig, ResolvedConfig } from '../contracts/config.ts'
import { VelaError } from '../errors/vela-error.ts'

export const DEFAULT_HEALTH = { live: '/livez', ready: '/readyz' } as const

type ResolvedHealth = ResolvedConfig['server']['health']

export function resolveHealth(value: HealthConfig | false): ResolvedHealth {
  if (value === false) return { live: null, ready: null }
  if (typeof value !== 'object' || value === null) throw new VelaError('VELA_ERR_CONFIG', `server.health must be { live, ready } or false, got ${JSON.stringify(value)}`)
  const path = (key: 'live' | 'ready'): string | null => {
    const p = value[key] ?? DEFAULT_HEALTH[key]
    if (p === false) return null
    if (typeof p !== 'string' || !/^\/[^?#\s]*$/.test(p)) {
      throw new VelaError('VELA_ERR_CONFIG', `server.health.${key} must be a path starting with / (no query, no spaces) or false, got ${JSON.stringify(p)}`)
    }
    return p
  }
  const health = { live: path('live'), ready: path('ready') }
  if (health.live !== null && health.live === health.ready) throw new VelaError('VELA_ERR_CONFIG', `server.health: live and ready are both ${health.live}; give them different paths`)
  return health
}

/** A duration in ms: an integer from 0 (a timer's longest delay is 2^31 - 1 ms). */
export function millis(key: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1) throw new VelaError('VELA_ERR_CONFIG', `${key} must be a whole number of milliseconds from 0, got ${JSON.stringify(value)}`)
  return value
}
