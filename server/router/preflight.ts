/**
 * An OPTIONS request to a path whose routes do not list OPTIONS: a CORS preflight. It runs the
 * pre-request plugins of the path's group (where the CORS plugin answers it) without the group's
 * security callback, since browsers send preflights without credentials; when no plugin answers,
 * it is the 405 the path would give any other unlisted method.
 */
import type { CompiledRoute } from '../contracts/routes.ts'
import { httpError } from '../errors/http-error.ts'
import type { PipelineContext, RouteRunner } from '../pipeline/run.ts'
import { createRouteRunner } from '../pipeline/run.ts'

/** The runner of a preflight to `route`'s path, whose methods are `allow`. */
export function preflightRunner(route: CompiledRoute, allow: string, ctx: PipelineContext): RouteRunner {
  return createRouteRunner(
    { ...route, group: { ...route.group, security: false } },
    () => {
      throw httpError(405, undefined, { headers: { allow } })
    },
    ctx,
  )
}
