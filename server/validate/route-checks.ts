/**
 * Every route's checks, compiled once when the app is created: its request check (`validate`) and
 * its response check (`responses`, `validate.response`; `dev` and `test` only). A schema name
 * that names no `priv/schemas/<name>.json`, a file Ajv refuses, or a value that is neither a name
 * nor a Standard Schema object stops the start with a `VELA_ERR_ROUTE` naming the route.
 */
import type { JsonLib } from '../contracts/primitives.ts'
import type { CompiledRoute, RouteTable, SchemaRef } from '../contracts/routes.ts'
import { VelaError } from '../errors/vela-error.ts'
import type { NamedSchemas } from './named-schemas.ts'
import { readSchemaDir } from './named-schemas.ts'
import type { RequestCheck } from './request-check.ts'
import { requestCheck } from './request-check.ts'
import type { ResponseCheck } from './response-check.ts'
import { CHECKED_ENVIRONMENTS, responseCheck } from './response-check.ts'
import { Validators } from './validators.ts'

/** What the route's pipeline runs around its handler. */
export interface RouteChecks {
  readonly request?: RequestCheck
  readonly response?: ResponseCheck
}

export interface RouteChecksOptions {
  /** The app's schemas by name; when absent, `priv/schemas/*.json` under `root` is read if a route names one. */
  readonly schemas?: NamedSchemas
  readonly root: string
  readonly environment: string
  readonly jsonLib: JsonLib
  readonly log: (message: string, error: unknown, key?: string) => void
}

function refsOf(route: CompiledRoute, withReplies: boolean): SchemaRef[] {
  const { validate, responses } = route.options
  const refs: (SchemaRef | null | undefined)[] = [validate?.body, validate?.query, validate?.params, validate?.headers]
  if (withReplies) refs.push(validate?.response, ...Object.values(responses ?? {}))
  return refs.filter((r): r is SchemaRef => r !== undefined && r !== null)
}

/** The checks of every HTTP route that has any. */
export function compileRouteChecks(
  table: RouteTable,
  opts: RouteChecksOptions,
): ReadonlyMap<CompiledRoute, RouteChecks> {
  const out = new Map<CompiledRoute, RouteChecks>()
  const replies = CHECKED_ENVIRONMENTS.has(opts.environment)
  const routes = table.routes.filter((r) => r.kind === 'http' && refsOf(r, replies).length > 0)
  if (!routes.length) return out
  const named = routes.some((r) => refsOf(r, replies).some((ref) => typeof ref === 'string'))
  const validators = new Validators(opts.schemas ?? (named ? readSchemaDir(opts.root) : {}))
  for (const route of routes) {
    const where = `${route.source} (${route.path})`
    try {
      const request = requestCheck(route.options.validate, validators, where, opts.jsonLib)
      const response = responseCheck(route, validators, opts.environment, opts.log, opts.jsonLib)
      if (request || response) out.set(route, { request, response })
    } catch (err) {
      if (err instanceof VelaError) throw err
      throw new VelaError('VELA_ERR_ROUTE', err instanceof Error ? err.message : String(err))
    }
  }
  return out
}
