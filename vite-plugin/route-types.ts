/**
 * The text of `.vela/routes.d.ts`: the app's routes as the `Routes` interface of
 * `virtual:vela/routes`, one entry per `METHOD /path` with its params, query, body and the reply
 * body per status, for `createClient<Routes>` (vela/client).
 *
 * **Choice: flat, explicit entries.** The route table is read at run time (the app is loaded, as
 * for `vela routes`), so each entry is written out with what is known there: the path's
 * parameters, the `priv/schemas` files `validate` and `responses` name (converted to plain object
 * types, json-schema-ts.ts), and a reference to the handler (`typeof C0['show']`, an `import type`
 * of the controller module) whose reply types give the statuses and bodies. Only a Standard Schema
 * object or an inline handler is reached inside the route module's type (`PathGet<…>`, which
 * needs `defineRoutes` to keep the tuples' types). The editor reads one small type per route
 * instead of inferring the whole app through nested conditional types, so completion stays fast
 * as routes grow.
 *
 * | part | from |
 * |---|---|
 * | params | `validate.params`, else `{ name: string \| number }` per `:name` of the path |
 * | query | `validate.query`, else any key (optional) |
 * | body | `validate.body`, else `unknown` for POST/PUT/PATCH, none for GET/DELETE |
 * | responses | the handler's replies, a status declared in `responses` replacing the handler's body for it, and 422 `{ errors }` when the route validates |
 *
 * `ALL` routes give GET, POST, PUT, PATCH and DELETE entries; WebSocket and
 * static routes, and paths ending in a `[...]` wildcard, give none.
 *
 * The file also adds the request-side type of each `priv/schemas` name the routes validate with
 * (params, query or body) to the `VelaSchemas` interface of `vela`, from which `defineRoute` types
 * the handler's `req.json`, `req.query` and `req.bindings`.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { AppConfig } from '../server/app/config.ts'
import type { CompiledRoute, RouteTable, SchemaRef } from '../server/contracts/routes.ts'
import { moduleName } from '../server/router/compile.ts'
import { jsonSchemaToTs, type SchemaDirection } from './json-schema-ts.ts'

/** Where the file is written, from the app root. */
export const ROUTE_TYPES_FILE = '.vela/routes.d.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH'])
/** The vela/client types an entry may use; the file imports those it does. */
const HELPERS = [
  'HandlerResponses',
  'PathGet',
  'QueryValue',
  'SchemaInput',
  'SchemaOutput',
  'ValidationErrors',
  'WithDeclared',
]

/** What the generator reads besides the route table. */
export interface RouteTypesInput {
  readonly root: string
  /** The app config with its discovered `routes` and `controllers` (keys: paths from the root). */
  readonly config: Pick<AppConfig, 'routes' | 'controllers'>
  readonly table: RouteTable
  /** A `priv/schemas/<name>.json` file's schema, or undefined when there is none. */
  readonly readSchema: (name: string) => Record<string, unknown> | undefined
}

const defaultOf = (mod: unknown): unknown =>
  typeof mod === 'object' && mod !== null && 'default' in mod ? (mod as { default: unknown }).default : undefined
const quote = (s: string) => JSON.stringify(s)

/** Collects the imports and named schema types one file needs. */
class Names {
  readonly imports: string[] = []
  readonly types: string[] = []
  private readonly modules = new Map<string, string>()
  private readonly schemas = new Map<string, string>()
  /** The request-side type name per schema name, for `VelaSchemas`. */
  readonly requests = new Map<string, string>()
  constructor(private readonly input: RouteTypesInput) {}

  /** The local name of an `import type * as` of the module at `key` (a path from the root). */
  module(key: string, prefix: 'R' | 'C'): string {
    let name = this.modules.get(key)
    if (!name) {
      name = `${prefix}${this.modules.size}`
      this.modules.set(key, name)
      this.imports.push(`import type * as ${name} from ${quote(`../${key}`)}`)
    }
    return name
  }

  /** The named type of a `priv/schemas` file, one direction. */
  schema(file: string, direction: SchemaDirection): string {
    const name = this.named(file, direction)
    if (direction === 'in') this.requests.set(file, name)
    return name
  }

  /**
   * The named type of a `priv/schemas` file, or of one of its `definitions` (`$defs`), written
   * once; named before its text is made, so a schema that refers to itself is a recursive type.
   */
  private named(file: string, direction: SchemaDirection, definition?: string): string {
    const id = `${direction}:${file}#${definition ?? ''}`
    let name = this.schemas.get(id)
    if (name) return name
    const schema = this.input.readSchema(file)
    const part = definition === undefined ? schema : definitionOf(schema, definition)
    name = `${direction === 'in' ? 'In' : 'Out'}_${`${file}${definition === undefined ? '' : `__${definition}`}`.replace(/\W/g, '_')}`
    this.schemas.set(id, name)
    const text = part ? jsonSchemaToTs(part, direction, (ref) => this.refType(file, ref, direction)) : 'unknown'
    const what = `priv/schemas/${file}.json${definition === undefined ? '' : `#/definitions/${definition}`}`
    this.types.push(`/** ${what}${direction === 'in' ? ' (as sent)' : ' (as answered)'} */\ntype ${name} = ${text}`)
    return name
  }

  /** The type a `$ref` inside `file` stands for: that file's definition, or another file's type. */
  private refType(file: string, ref: string, direction: SchemaDirection): string | undefined {
    if (ref === '#') return this.named(file, direction)
    const local = LOCAL_REF.exec(ref)
    if (local) return this.named(file, direction, decodeURIComponent(local[1]!))
    const other = FILE_REF.exec(ref)
    if (!other || !this.input.readSchema(other[1]!)) return undefined
    return this.named(other[1]!, direction, other[2] === undefined ? undefined : decodeURIComponent(other[2]))
  }
}

/** `#/definitions/x` (or `$defs`): a definition of the same file. */
const LOCAL_REF = /^#\/(?:definitions|\$defs)\/([^/]+)$/
/** `other.json`, `./other.json`, `other.json#/definitions/x`: another `priv/schemas` file, or its definition. */
const FILE_REF = /^(?:\.\/)?([A-Za-z0-9._-]+)\.json(?:#(?:\/(?:definitions|\$defs)\/([^/]+))?)?$/

const definitionOf = (
  schema: Record<string, unknown> | undefined,
  name: string,
): Record<string, unknown> | undefined => {
  for (const key of ['definitions', '$defs']) {
    const defs = schema?.[key] as Record<string, unknown> | undefined
    const found = defs?.[name]
    if (typeof found === 'object' && found !== null) return found as Record<string, unknown>
  }
  return undefined
}

/** How the generated file reaches one route's tuple inside its module's default export type. */
function tuplePath(route: CompiledRoute, input: RouteTypesInput, names: Names): string | undefined {
  const at = /^(.*) group (\d+) route (\d+)$/.exec(route.source)
  if (!at) return undefined
  const [, key, gi, ri] = at as unknown as [string, string, string, string]
  const mod = input.config.routes?.[key]
  const source = defaultOf(mod)
  if (source === undefined || !existsSync(resolve(input.root, key))) return undefined
  const ref = `typeof ${names.module(key, 'R')}['default']`
  const base = typeof source === 'function' ? `ReturnType<${ref}>` : ref
  const resolved = typeof source === 'function' ? undefined : source
  const steps = Array.isArray(resolved) || resolved === undefined ? `${gi}, 'routes', ${ri}` : `'routes', ${ri}`
  // A function's result may be one group or a list: both paths are tried, the missing one is unknown.
  return resolved === undefined
    ? `PathGet<${base}, ['routes', ${ri}]> & PathGet<${base}, [${steps}]>`
    : `PathGet<${base}, [${steps}]>`
}

function schemaType(
  ref: SchemaRef | undefined,
  direction: SchemaDirection,
  names: Names,
  standard: () => string,
): string | undefined {
  if (ref === undefined) return undefined
  if (typeof ref === 'string') return names.schema(ref, direction)
  return `${direction === 'in' ? 'SchemaInput' : 'SchemaOutput'}<${standard()}>`
}

function handlerResponses(
  route: CompiledRoute,
  input: RouteTypesInput,
  names: Names,
  tuple: () => string | undefined,
): string {
  const { controller, action } = route.info
  const key = Object.keys(input.config.controllers ?? {}).find((k) => moduleName(k) === controller)
  const mod = key === undefined ? undefined : (input.config.controllers?.[key] as Record<string, unknown> | undefined)
  if (key !== undefined && mod && action in mod && existsSync(resolve(input.root, key)))
    return `HandlerResponses<typeof ${names.module(key, 'C')}[${quote(action)}]>`
  const t = tuple()
  if (t) return `HandlerResponses<PathGet<${t}, [1]>>`
  return '{ status: number; body: unknown }'
}

function entry(
  route: CompiledRoute,
  method: string,
  input: RouteTypesInput,
  names: Names,
  tuple: () => string | undefined,
): string {
  const v = route.options.validate ?? {}
  const at = (...steps: string[]) => {
    const t = tuple()
    return t ? `PathGet<${t}, [2, ${steps.map(quote).join(', ')}]>` : 'unknown'
  }
  const pathParams = [...route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!)
  const params =
    schemaType(v.params, 'in', names, () => at('validate', 'params')) ??
    (pathParams.length ? `{ ${pathParams.map((p) => `${p}: string | number`).join('; ')} }` : '{}')
  const query = schemaType(v.query, 'in', names, () => at('validate', 'query')) ?? '{ [key: string]: QueryValue }'
  const body =
    schemaType(v.body, 'in', names, () => at('validate', 'body')) ?? (WITH_BODY.has(method) ? 'unknown' : 'undefined')
  let responses = handlerResponses(route, input, names, tuple)
  const declared = Object.entries(route.options.responses ?? {}).map(
    ([status, ref]) =>
      `{ status: ${Number(status)}; body: ${ref === null ? 'undefined' : schemaType(ref, 'out', names, () => at('responses', status))} }`,
  )
  if (declared.length) responses = `WithDeclared<${responses}, ${declared.join(' | ')}>`
  if (v.body !== undefined || v.query !== undefined || v.params !== undefined || v.headers !== undefined)
    responses += ' | { status: 422; body: ValidationErrors }'
  return `    ${quote(`${method} ${route.path}`)}: {\n      params: ${params}\n      query: ${query}\n      body: ${body}\n      responses: ${responses}\n    }`
}

/**
 * The text of `.vela/routes.d.ts` for the app's route table.
 *
 * @example
 * const text = routeTypesSource({ root, config, table: app.routeTable, readSchema })
 */
export function routeTypesSource(input: RouteTypesInput): string {
  const names = new Names(input)
  const entries: string[] = []
  for (const route of input.table.routes) {
    if (route.kind !== 'http' || route.path.includes('[...]')) continue
    const methods =
      route.methods === 'all' ? METHODS : METHODS.filter((m) => (route.methods as readonly string[]).includes(m))
    if (methods.length === 0) continue
    let found: { path: string | undefined } | undefined
    const tuple = () => (found ??= { path: tuplePath(route, input, names) }).path
    for (const m of methods) entries.push(entry(route, m, input, names, tuple))
  }
  const schemas = [...names.requests].map(([file, name]) => `    ${quote(file)}: ${name}\n`).join('')
  const augment = schemas ? `\ndeclare module 'vela' {\n  interface VelaSchemas {\n${schemas}  }\n}\n` : ''
  const body = `${names.types.map((t) => `${t}\n\n`).join('')}declare module 'virtual:vela/routes' {\n  interface Routes {\n${entries.join('\n')}\n  }\n}\n${augment}`
  const helpers = HELPERS.filter((h) => new RegExp(`\\b${h}\\b`).test(body))
  return `// Generated by vela from the app's routes; rewritten at \`vite\`, \`vite build\`, \`vitest\` and \`vela types\`: do not edit.
// Use it with: import type { Routes } from 'virtual:vela/routes'; createClient<Routes>(baseUrl) from 'vela/client'.
import type { ${helpers.join(', ')} } from 'vela/client'
${names.imports.map((i) => `${i}\n`).join('')}
${body}`
}
