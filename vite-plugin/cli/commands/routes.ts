/**
 * `vela routes`: the compiled routing table. Routers with virtual hosts print one per host; Vela has one
 * (routing ignores the Host header), so there is one table, headed `host *`. Routes are listed in
 * declaration order (route files in the order the app lists them, then groups, then routes).
 *
 *   host * (Vela routes every Host alike)
 *   METHOD     PATH               CONTROLLER.ACTION            GROUP  KIND
 *   GET        /heartbeat         health_controller.heartbeat  ""     http
 *   PUT,PATCH  /api/products/:id  products_controller.update   /api   http
 *   GET        /docs/[...]        static.serve                 ""     static
 *   GET        /ws                routes/public.anonymous      ""     ws
 *
 * METHOD is the uppercase list (`GET,POST`) or `*` for an `ALL` route; GROUP is the
 * group prefix (`""` for the empty prefix); KIND is `http`, `static` (a `staticDir` route) or `ws`
 * (a WebSocket route).
 *
 * A group's status routes (`[404, handler]`: the page for that status on the paths under the
 * group's prefix) follow the group's routes, in the same columns: the status where the method
 * goes, the paths it covers (`<prefix>/[...]`, Vela's catch-all), the handler, the group, kind
 * `status`:
 *
 *   404        /notes/[...]       notes_controller.notFound    /notes  status
 *
 * `--json`: `{ "hosts": [{ "host": "*", "routes": [{ methods: string[] | "all", path, controller,
 * action, prefix, kind, source }], "statusRoutes": [{ status, prefix, controller, action,
 * source }] }] }` where `source` says where the route was declared. Status routes have their own
 * list (not `routes`), so a consumer of `routes` keeps seeing only what requests are matched to.
 */
import type { CompiledGroup, RouteTable } from '../../../server/router/compile.ts'
import { align, handlerLabel, methodLabel } from './describe.ts'

export interface RouteEntry {
  readonly methods: readonly string[] | 'all'
  readonly path: string
  readonly controller: string
  readonly action: string
  readonly prefix: string
  readonly kind: 'http' | 'ws' | 'static'
  readonly source: string
}

export interface StatusRouteEntry {
  readonly status: number
  readonly prefix: string
  readonly controller: string
  readonly action: string
  readonly source: string
}

export interface RoutesReport {
  readonly hosts: readonly {
    readonly host: string
    readonly routes: readonly RouteEntry[]
    readonly statusRoutes: readonly StatusRouteEntry[]
  }[]
}

/** A group's status routes, in declaration order; `source` as a route's (`<file> group <n> status <code>`). */
function statusRoutesOf(group: CompiledGroup): StatusRouteEntry[] {
  const where = group.source.replace(/ \(prefix .*\)$/, '')
  return [...group.statusRoutes].map(([status, { identity }]) => ({
    status,
    prefix: group.prefix,
    controller: identity.controller,
    action: identity.action,
    source: `${where} status ${status}`,
  }))
}

/** The paths a status route answers for: everything under the prefix. */
const coveredPaths = (prefix: string) => `${prefix.replace(/\/$/, '')}/[...]`

export function listRoutes(table: RouteTable): RoutesReport {
  const routes = table.routes.map((r) => ({
    methods: r.methods,
    path: r.path,
    controller: r.info.controller,
    action: r.info.action,
    prefix: r.group.prefix,
    kind: r.kind,
    source: r.source,
  }))
  return { hosts: [{ host: '*', routes, statusRoutes: table.groups.flatMap(statusRoutesOf) }] }
}

export const prefixLabel = (prefix: string): string => (prefix === '' ? '""' : prefix)

export function formatRoutes(table: RouteTable): string {
  const out: string[] = []
  out.push('host * (Vela routes every Host alike)')
  if (table.routes.length === 0 && !table.groups.some((g) => g.statusRoutes.size))
    return [...out, '(no routes)'].join('\n')
  const rows = table.groups.flatMap((g) => [
    ...table.routes
      .filter((r) => r.group === g)
      .map((r) => [methodLabel(r), r.path, handlerLabel(r), prefixLabel(g.prefix), r.kind]),
    ...statusRoutesOf(g).map((s) => [
      String(s.status),
      coveredPaths(s.prefix),
      `${s.controller}.${s.action}`,
      prefixLabel(g.prefix),
      'status',
    ]),
  ])
  out.push(...align([['METHOD', 'PATH', 'CONTROLLER.ACTION', 'GROUP', 'KIND'], ...rows]))
  return out.join('\n')
}
