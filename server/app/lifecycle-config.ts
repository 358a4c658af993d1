/**
 * `server.health` resolved to its two paths (null for one that is off) and checked, so a mistake
 * is a `VELA_ERR_CONFIG` naming the key when the app is created, before any start hook runs. (The
 * shutdown durations, `server.drainDelay` and `server.shutdownTimeout`, are checked with the other
 * numbers: check-config.ts.)
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
