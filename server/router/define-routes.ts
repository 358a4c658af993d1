/**
 * `defineRoutes`, which types a route module (`src/routes/*.ts`). The shapes users write there
 * live in server/contracts/routes.ts.
 */
import type { RouteSource } from '../contracts/routes.ts'

/**
 * Declares a route module's routes: the default export of a `src/routes/*.ts` file.
 *
 * `source` is a group, a list of groups, or a function of the environment returning them; it is
 * returned as given, typed.
 *
 * @example
 * ```ts
 * // src/routes/api.ts
 * import { defineRoutes, json, requestPlugin, status } from 'vela'
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   plugins: [requestPlugin({ json: true })],
 *   routes: [
 *     ['GET /products/:id', (req) => json({ id: req.bindings.id })],
 *     ['POST /products', (req) => json({ got: req.json }, { status: 201 })],
 *     [404, () => status(404, { error: 'no such product' })],
 *   ],
 * })
 * ```
 */
export function defineRoutes<const T extends RouteSource>(source: T): T {
  return source
}
