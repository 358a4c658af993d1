/**
 * Compiles route modules into the route table, once at start-up: full paths, methods, the code
 * identity of every handler, the group each route runs under, and a start-up error for any method
 * and path declared twice (naming both places).
 */
import type { ModuleMap } from '../contracts/primitives.ts'
import type { PluginEntry } from '../pipeline/registration.ts'
import { compilePluginEntries } from '../pipeline/registration.ts'
import type {
  CompiledGroup,
  CompiledRoute,
  Handler,
  HandlerIdentity,
  NamedSecurityScheme,
  Route,
  RouteGroup,
  RouteOptions,
  RouteSource,
  RouteTable,
  SecurityCallback,
  SecuritySchemeObject,
  StaticRouteHandler,
  StatusRoute,
  WebSocketRouteHandler,
} from '../contracts/routes.ts'
import { MILLISECONDS, checkNumber } from '../app/check-values.ts'
import { VelaError } from '../errors/vela-error.ts'
import { STANDARD_METHODS, routeMethods } from './route-method.ts'

export type { CompiledGroup, CompiledRoute, RouteTable } from '../contracts/routes.ts'

/** `src/controllers/products_controller.ts` → `products_controller`. */
export function moduleName(key: string): string {
  const base = key.split(/[\\/]/).pop() ?? key
  return base.replace(/\.[cm]?[jt]sx?$/, '')
}

function buildIdentities(controllers: ModuleMap<Record<string, unknown>> = {}): Map<unknown, HandlerIdentity> {
  const map = new Map<unknown, HandlerIdentity>()
  for (const [key, mod] of Object.entries(controllers)) {
    const controller = moduleName(key)
    for (const [action, value] of Object.entries(mod)) {
      if ((typeof value === 'function' || (typeof value === 'object' && value !== null)) && !map.has(value)) {
        map.set(value, { controller, action })
      }
    }
  }
  return map
}

/** Joins prefix and path into one canonical pattern: leading slash, no duplicate or trailing slashes. */
function joinPath(prefix: string, path: string): string {
  const joined = `/${prefix}/${path}`.replace(/\/{2,}/g, '/')
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined
}

function groupsOf(source: RouteSource | { default: RouteSource }, environment: string): readonly RouteGroup[] {
  const value = typeof source === 'object' && source !== null && 'default' in source ? source.default : source
  const resolved = typeof value === 'function' ? value(environment) : value
  return Array.isArray(resolved) ? resolved : [resolved as RouteGroup]
}

const isStatusRoute = (r: Route | StatusRoute): r is StatusRoute => typeof r[0] === 'number'

export function compileRoutes(opts: {
  routes?: ModuleMap<RouteSource | { default: RouteSource }>
  controllers?: ModuleMap<Record<string, unknown>>
  globalPlugins: readonly PluginEntry[]
  environment: string
  /** Passed to plugins' `init` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>
}): RouteTable {
  const identities = buildIdentities(opts.controllers)
  const initCtx = { environment: opts.environment, env: opts.env ?? process.env }
  const globalSteps = compilePluginEntries(opts.globalPlugins, 'global plugins', initCtx)
  const globalPre = globalSteps.filter((s) => s.phase === 'pre_request')
  const globalPost = globalSteps.filter((s) => s.phase === 'post_request')
  const routes: CompiledRoute[] = []
  const groups: CompiledGroup[] = []
  const seen = new Map<string, string>()

  for (const [key, mod] of Object.entries(opts.routes ?? {})) {
    const file = moduleName(key)
    const identify = (h: unknown): HandlerIdentity =>
      identities.get(h) ?? { controller: `routes/${file}`, action: 'anonymous' }
    groupsOf(mod, opts.environment).forEach((group, gi) => {
      const where = `${key} group ${gi} (prefix ${JSON.stringify(group.prefix)})`
      if (typeof group.prefix !== 'string')
        throw new VelaError('VELA_ERR_ROUTE', `${where}: prefix must be a string (may be empty)`)
      const security = groupSecurity(group.security, where)
      const own = group.plugins ? compilePluginEntries(group.plugins, where, initCtx) : undefined
      const statusRoutes = new Map<number, { handler: Handler; identity: HandlerIdentity }>()
      const compiled: CompiledGroup = {
        prefix: group.prefix,
        security: security.check,
        securityScheme: security.scheme,
        ownPlugins: group.plugins,
        pre: own ? own.filter((s) => s.phase === 'pre_request') : globalPre,
        post: own ? own.filter((s) => s.phase === 'post_request') : globalPost,
        statusRoutes,
        source: where,
      }
      groups.push(compiled)
      group.routes.forEach((route, ri) => {
        const at = `${key} group ${gi} route ${ri}`
        if (isStatusRoute(route)) {
          statusRoutes.set(route[0], { handler: route[1], identity: identify(route[1]) })
          return
        }
        const [declared, handler, options = {}] = route
        if (typeof declared !== 'string') throw new VelaError('VELA_ERR_ROUTE', `${at}: path must be a string`)
        const kind = routeKind(handler, options, at)
        checkNumber('VELA_ERR_ROUTE', `${at}: handlerTimeout`, options.handlerTimeout, MILLISECONDS)
        const { path, methods } = routeMethods(declared, options, kind, { at, prefix: group.prefix })
        const full = joinPath(group.prefix, path)
        for (const m of methods === 'all' ? STANDARD_METHODS : methods) {
          const dupKey = `${m} ${full.replace(/:[^/]+/g, ':')}`
          const earlier = seen.get(dupKey)
          if (earlier)
            throw new VelaError(
              'VELA_ERR_DUPLICATE_ROUTE',
              `route ${m} ${full} is declared twice: at ${earlier} and at ${at}`,
            )
          seen.set(dupKey, at)
        }
        const identity = kind === 'static' ? { controller: 'static', action: 'serve' } : identify(handler)
        routes.push({
          path: full,
          methods,
          kind,
          handler,
          options,
          group: compiled,
          info: { path: full, prefix: group.prefix, controller: identity.controller, action: identity.action },
          source: at,
        })
      })
    })
  }
  return { routes, groups, globalPre, globalPost }
}

function routeKind(handler: unknown, options: RouteOptions, at: string): CompiledRoute['kind'] {
  if (options.protocol === 'ws') {
    if ((handler as WebSocketRouteHandler)?.kind !== 'vela.websocket')
      throw new VelaError('VELA_ERR_ROUTE', `${at}: a ws route needs a handler made by defineWebSocket`)
    return 'ws'
  }
  if (typeof handler === 'function') return 'http'
  if ((handler as StaticRouteHandler)?.kind === 'vela.static') return 'static'
  throw new VelaError(
    'VELA_ERR_ROUTE',
    `${at}: handler must be a function, staticDir(...) or, with protocol 'ws', a WebSocket handler`,
  )
}

/** A group's `security` split into the callback that decides and the scheme it documents, if any. */
function groupSecurity(
  security: RouteGroup['security'],
  where: string,
): { check: false | SecurityCallback; scheme?: NamedSecurityScheme } {
  if (security === false || typeof security === 'function') return { check: security }
  if (
    security &&
    typeof security === 'object' &&
    typeof security.check === 'function' &&
    security.scheme &&
    typeof security.scheme === 'object'
  ) {
    const scheme = security.scheme
    if (typeof scheme.type !== 'string')
      throw new VelaError(
        'VELA_ERR_ROUTE',
        `${where}: security.scheme needs a type (http, apiKey, oauth2, openIdConnect)`,
      )
    return { check: security.check, scheme: { name: security.name ?? defaultSchemeName(scheme), scheme } }
  }
  throw new VelaError('VELA_ERR_ROUTE', `${where}: security must be false, a function, or { scheme, check }`)
}

/** `bearerAuth`, `basicAuth`, `cookieAuth`, `apiKeyAuth`, …: the usual names in OpenAPI documents. */
function defaultSchemeName(scheme: SecuritySchemeObject): string {
  if (scheme.type === 'http') return `${scheme.scheme.toLowerCase()}Auth`
  if (scheme.type === 'apiKey') return scheme.in === 'cookie' ? 'cookieAuth' : 'apiKeyAuth'
  return scheme.type
}
