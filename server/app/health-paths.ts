/**
 * The health endpoints are answered before the route table (server/exchange/health.ts), so a
 * route declared on the same path would never run: refused when the app is created, naming both.
 */
import type { ResolvedConfig } from '../contracts/config.ts'
import type { RouteTable } from '../contracts/routes.ts'
import { VelaError } from '../errors/vela-error.ts'

export function checkHealthPaths(health: ResolvedConfig['server']['health'], table: RouteTable): void {
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
