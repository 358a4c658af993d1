/**
 * `vela routes`: the compiled routing table. The spec prints it per host; Vela has a single host
 * (routing ignores the Host header), so there is one table, headed `host *`. Routes are listed in
 * declaration order (route files in the order the app lists them, then groups, then routes).
 *
 *   host * (Vela routes every Host alike)
 *   METHOD     PATH               CONTROLLER.ACTION            GROUP  KIND
 *   GET        /heartbeat         health_controller.heartbeat  ""     http
 *   PUT,PATCH  /api/products/:id  products_controller.update   /api   http
 *   *          /docs/[...]        static.serve                 ""     static
 *   *          /ws                routes/public.anonymous      ""     ws
 *
 * METHOD is the uppercase list (`GET,POST`) or `*` for a route without `methods`; GROUP is the
 * group prefix (`""` for the empty prefix); KIND is `http`, `static` (a `staticDir` route) or `ws`
 * (a WebSocket route). `--json`:
 * `{ "hosts": [{ "host": "*", "routes": [{ methods: string[] | "all", path, controller, action,
 * prefix, kind, source }] }] }` where `source` says where the route was declared.
 */
import type { RouteTable } from '../../server/router/compile.ts'
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

export interface RoutesReport {
  readonly hosts: readonly { readonly host: string; readonly routes: readonly RouteEntry[] }[]
}

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
  return { hosts: [{ host: '*', routes }] }
}

export const prefixLabel = (prefix: string): string => (prefix === '' ? '""' : prefix)

export function formatRoutes(table: RouteTable): string {
  const out: string[] = []
  out.push('host * (Vela routes every Host alike)')
  if (table.routes.length === 0) return [...out, '(no routes)'].join('\n')
  const rows = table.routes.map((r) => [methodLabel(r), r.path, handlerLabel(r), prefixLabel(r.group.prefix), r.kind])
  out.push(...align([['METHOD', 'PATH', 'CONTROLLER.ACTION', 'GROUP', 'KIND'], ...rows]))
  return out.join('\n')
}
