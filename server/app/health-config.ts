/**
 * `server.health` resolved to its two paths (null for one that is off) and checked, so a mistake
 * is a `VELA_ERR_CONFIG` naming the key when the app is created, before any start hook runs: a
 * path that is not one, the same path twice, and (`checkHealthPaths`) a route on a health path,
 * which would never run since the endpoints are answered before the route table
 * (server/exchange/health.ts). The shutdown durations, `server.drainDelay` and
 * `server.shutdownTimeout`, are checked with the other numbers (check-config.ts).
 */
import type { HealthConfig, ResolvedConfig } from '../contracts/config.ts'
import type { RouteTable } from '../contracts/routes.ts'
import { VelaError } from '../errors/vela-error.ts'

export const DEFAULT_HEALTH = { live: '/livez', ready: '/readyz' } as const

type ResolvedHealth = ResolvedConfig['server']['health']

export function resolveHealth(value: HealthConfig | false): ResolvedHealth {
  if (value === false) return { live: null, ready: null }
  if (typeof value !== 'object' || value === null)
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `server.health must be { live, ready } or false, got ${JSON.stringify(value)}`,
    )
  const path = (key: 'live' | 'ready'): string | null => {
    const p = value[key] ?? DEFAULT_HEALTH[key]
    if (p === false) return null
    if (typeof p !== 'string' || !/^\/[^?#\s]*$/.test(p)) {
      throw new VelaError(
        'VELA_ERR_CONFIG',
        `server.health.${key} must be a path starting with / (no query, no spaces) or false, got ${JSON.stringify(p)}`,
      )
    }
    return p
  }
  const health = { live: path('live'), ready: path('ready') }
  if (health.live !== null && health.live === health.ready)
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `server.health: live and ready are both ${health.live}; give them different paths`,
    )
  return health
}

export function checkHealthPaths(health: ResolvedHealth, table: RouteTable): void {
  for (const key of ['live', 'ready'] as const) {
    const path = health[key]
    const route = path === null ? undefined : table.routes.find((r) => r.path === path)
    if (route) {
      throw new VelaError(
        'VELA_ERR_CONFIG',
        `server.health.${key}: ${path} is also the path of a route (${route.source}), which the health endpoint would hide; give server.health.${key} another path, or false`,
      )
    }
  }
}
