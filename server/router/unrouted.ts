/**
 * The answer to a request no route takes: a 404 (no route has its path) or a 405 (routes have its
 * path, none its method). Either is the status route of the most specific group whose prefix
 * holds the path (`[404, handler]`), else the built-in page.
 */
import type { RouteInfo } from '../contracts/request.ts'
import type { CompiledGroup, RouteTable } from '../contracts/routes.ts'
import type { Exchange } from '../exchange/exchange.ts'
import { statusPage } from '../pipeline/failure.ts'
import type { PipelineContext } from '../pipeline/run.ts'
import { VelaRequest } from '../request.ts'
import { NO_BINDINGS } from './dispatch.ts'

/** Answers an unrouted exchange with `status` (and `headers`, e.g. a 405's `allow`). */
export type Unrouted = (x: Exchange, status: number, headers?: Record<string, string>) => Promise<Response>

/** Whether `path` falls under `prefix` (the empty prefix holds every path). */
const under = (prefix: string, path: string): boolean =>
  prefix === '' || path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)

export function createUnrouted(table: RouteTable, ctx: PipelineContext): Unrouted {
  // Groups that define status routes, longest prefix first: an unrouted request gets the page of
  // the most specific group whose prefix it falls under.
  const statusGroups = table.groups
    .filter((g) => g.statusRoutes.size > 0)
    .sort((a, b) => b.prefix.length - a.prefix.length)
  const groupFor = (path: string, status: number): CompiledGroup | undefined =>
    statusGroups.find((g) => g.statusRoutes.has(status) && under(g.prefix, path))

  return function unrouted(x, status, headers) {
    const group = groupFor(x.path, status)
    const custom = group?.statusRoutes.get(status)
    const info: RouteInfo = {
      path: x.path,
      prefix: group?.prefix ?? '',
      controller: custom?.identity.controller ?? 'vela',
      action: custom?.identity.action ?? String(status),
    }
    return statusPage(
      ctx,
      status,
      new VelaRequest(x, info, NO_BINDINGS, undefined, ctx),
      group,
      undefined,
      undefined,
      headers,
    )
  }
}
