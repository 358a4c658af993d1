/**
 * Where a route sits in the document: its OpenAPI path and parameter names, whether it is
 * documented at all, and the `priv/schemas` schema it documents by convention.
 */
import type { CompiledRoute } from '../../server/router/compile.ts'
import { singularize } from '../../dbl/inflect.ts'
import type { JsonSchema } from './schema.ts'

/** `products_controller` → `products`; other names unchanged. */
export const resourceOf = (controller: string): string => controller.replace(/_controller$/, '')

/** The schema a route documents: `options.schema`, else the controller's by convention, if it exists. */
export function schemaFor(route: CompiledRoute, schemas: Readonly<Record<string, JsonSchema>>): string | undefined {
  if (route.options.schema) return route.options.schema
  const resource = resourceOf(route.info.controller)
  const name = singularize(resource) ?? resource
  return Object.hasOwn(schemas, name) ? name : undefined
}

/** `/api/products/:id` → `/api/products/{id}` and its parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = []
  const converted = path
    .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (params.push(name), `{${name}}`))
    .replace(/\[\.\.\.\]$/, () => (params.push('path'), '{path}'))
  return { path: converted, params }
}

/** Does the path end in a parameter (a member route, not a collection)? */
export const endsInParam = (path: string) => /(:[^/]+|\[\.\.\.\])$/.test(path)

/** Is the route in the document: an HTTP route not answered by an error controller. */
export const isDocumented = (route: CompiledRoute): boolean =>
  route.kind === 'http' && !route.info.controller.endsWith('error_controller')
