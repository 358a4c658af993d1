/**
 * The dispatch structure: one entry per path pattern holding its routes by method, looked up by
 * rou3 (static segments win over `:params`; a trailing slash matches the same route). Method
 * selection happens after the path lookup, so a path that exists for other methods gives a 405
 * with `allow` instead of a 404.
 *
 * Backends (`dispatchBackend`): `compiled` generates a matcher function from the tree once at
 * start-up (rou3/compiler); `tree` walks the radix tree on every request.
 */
import { addRoute, createRouter, findRoute } from 'rou3'
import { compileRouter } from 'rou3/compiler'
import type { CompiledRoute } from './compile.ts'
import { STANDARD_METHODS } from './route-method.ts'

export interface PathEntry<R> {
  /** Routes by uppercase method; an `ALL` route is under every standard method. */
  readonly byMethod: Readonly<Record<string, R>>
  /** The `allow` header value for a 405. */
  readonly allow: string
  /** The pattern ends in `[...]`: the rest of the path is in the `_` param. */
  readonly wildcard: boolean
  /** Any route of this path: answers an OPTIONS preflight through its group's plugins. */
  readonly first: R
}

export interface Match<R> {
  readonly data: PathEntry<R>
  readonly params: Record<string, string> | undefined
}

export type Matcher<R> = (path: string) => Match<R> | undefined

/** `/docs/[...]` → `/docs/**`; `:name` params are the same syntax in both. */
function toRou3Pattern(path: string): string {
  return path.endsWith('/[...]') ? `${path.slice(0, -'/[...]'.length)}/**` : path === '/[...]' ? '/**' : path
}

export function buildMatcher<R>(
  routes: readonly CompiledRoute[],
  attach: (route: CompiledRoute) => R,
  backend: 'compiled' | 'tree',
): Matcher<R> {
  const byPattern = new Map<string, { pattern: string; byMethod: Record<string, R>; first: R }>()
  for (const route of routes) {
    const pattern = toRou3Pattern(route.path)
    const key = pattern.replace(/:[^/]+/g, ':')
    const target = attach(route)
    let entry = byPattern.get(key)
    if (!entry) byPattern.set(key, (entry = { pattern, byMethod: Object.create(null), first: target }))
    for (const m of route.methods === 'all' ? STANDARD_METHODS : route.methods) entry.byMethod[m] = target
    // HEAD is answered by the GET route unless a route claims HEAD itself.
    if (entry.byMethod.GET && !entry.byMethod.HEAD) entry.byMethod.HEAD = entry.byMethod.GET
  }
  const router = createRouter<PathEntry<R>>()
  for (const { pattern, byMethod, first } of byPattern.values()) {
    addRoute(router, '', pattern, {
      byMethod,
      first,
      allow: Object.keys(byMethod).join(', '),
      wildcard: pattern.endsWith('**'),
    })
  }
  if (backend === 'compiled') {
    const match = compileRouter(router)
    return (path) => match('', path) as Match<R> | undefined
  }
  return (path) => findRoute(router, '', path) as Match<R> | undefined
}

export interface DecodedParams {
  readonly bindings: Record<string, string>
  /** The rest of the path after a trailing `[...]`; `undefined` for routes without one. */
  readonly pathInfo: string | undefined
}

/** Bindings of a route without params: one frozen object shared by every such request. */
export const NO_BINDINGS: Record<string, string> = Object.freeze({}) as Record<string, string>

/** URL-decodes a match's params into bindings and the wildcard rest. Throws `URIError` on bad percent-encoding. */
export function decodeParams(match: Match<unknown>): DecodedParams {
  const params = match.params
  let pathInfo: string | undefined
  let bindings = NO_BINDINGS
  if (params) {
    bindings = {}
    for (const k in params) {
      const raw = params[k]!
      const value = raw.includes('%') ? decodeURIComponent(raw) : raw
      if (k === '_') pathInfo = value
      else if (k !== '0') bindings[k] = value // rou3 also gives an unnamed `**` as `0`
    }
  }
  return { bindings, pathInfo: match.data.wildcard ? (pathInfo ?? '') : pathInfo }
}
