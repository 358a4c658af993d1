/**
 * Which methods a route answers, read once at start-up from what the route declares: the method
 * in its path string (`'GET /notes'`, `'ALL /hooks'`) or, in the older form, `options.methods`.
 * A handler route that names no method is refused: answering every method by default turned a
 * forgotten option into a POST, PUT and DELETE handler. Static-file and WebSocket routes answer
 * GET (HEAD follows) without saying so.
 */
import type { RouteOptions } from '../contracts/routes.ts'
import { VelaError } from '../errors/vela-error.ts'

/** Every standard method, uppercase as on the wire: what an `ALL` route answers. */
export const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const

/** A standard method, as a route's path string names it (`'GET /notes'`). */
export type HttpMethod = (typeof STANDARD_METHODS)[number]

/** What a route's path string may start with: a standard method, or `ALL` for every one of them. */
const NAMES: ReadonlySet<string> = new Set([...STANDARD_METHODS, 'ALL'])

/** The methods of a route as the route table holds them: uppercase names, or `'all'`. */
export type CompiledMethods = readonly string[] | 'all'

/** Where a route was declared, for messages: its place in the module, its group's prefix and its path. */
export interface RouteSite {
  /** `src/routes/api.ts group 0 route 3`. */
  readonly at: string
  readonly prefix: string
}

const refuse = (site: RouteSite, declared: string, why: string): never => {
  throw new VelaError(
    'VELA_ERR_ROUTE',
    `${site.at} (prefix ${JSON.stringify(site.prefix)}, path ${JSON.stringify(declared)}): ${why}`,
  )
}

/**
 * Splits a route's path string into its method and its path: `'GET /notes'` → `GET`, `/notes`.
 * A string whose first word does not start with `/` is read as a method, so a misspelt one
 * (`'get /notes'`, `'GTE /notes'`) is refused rather than served as a path.
 */
export function splitRoutePath(declared: string): { readonly method: string | undefined; readonly path: string } {
  const m = /^([^/\s]\S*)\s+(.*)$/.exec(declared)
  return m ? { method: m[1], path: m[2]! } : { method: undefined, path: declared }
}

/**
 * The path and methods a route answers, or a start-up error saying what to write instead.
 * `kind` is the route's handler kind: `static` and `ws` routes default to GET and accept only
 * GET or HEAD.
 */
export function routeMethods(
  declared: string,
  options: RouteOptions,
  kind: 'http' | 'ws' | 'static',
  site: RouteSite,
): { readonly path: string; readonly methods: CompiledMethods } {
  const { method, path } = splitRoutePath(declared)
  // What the suggestions write for the path: the group's root for an empty one.
  const shown = path || '/'
  const listed = options.methods
  if (method !== undefined) {
    if (!NAMES.has(method)) {
      const upper = method.toUpperCase()
      refuse(
        site,
        declared,
        NAMES.has(upper)
          ? `write the method in uppercase, as on the wire: '${upper} ${shown}'`
          : `unknown method ${JSON.stringify(method)}: use one of ${[...NAMES].join(', ')} (ALL answers every method; for two methods, declare two routes)`,
      )
    }
    if (listed !== undefined)
      refuse(site, declared, `the method is in the path and in options.methods: keep only '${method} ${shown}'`)
  } else if (listed !== undefined && !Array.isArray(listed)) {
    refuse(
      site,
      declared,
      `options.methods must be a list: name the method in the path, 'GET ${shown}' (ALL for every method)`,
    )
  } else if (listed?.length === 0) {
    refuse(site, declared, `options.methods is empty: name the method in the path, e.g. 'GET ${shown}'`)
  }
  const methods: CompiledMethods =
    method === 'ALL' ? 'all' : method !== undefined ? [method] : (listed?.map((m) => m.toUpperCase()) ?? [])
  if (kind !== 'http') {
    const what = kind === 'ws' ? 'a WebSocket route is opened by a GET' : 'a staticDir route answers GET and HEAD'
    if (methods === 'all' || methods.some((m) => m !== 'GET' && m !== 'HEAD'))
      refuse(site, declared, `${what}: leave the method out or write 'GET ${shown}'`)
    return { path, methods: methods.length ? methods : ['GET'] }
  }
  if (methods !== 'all' && methods.length === 0)
    refuse(
      site,
      declared,
      `the route names no method. Write it in the path: ['GET ${shown}', handler] (or 'POST', 'PUT', …; ` +
        `'ALL ${shown}' answers every method). A route without a method no longer answers every method`,
    )
  return { path, methods }
}
