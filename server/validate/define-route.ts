/**
 * `defineRoute('POST /notes', handler, options)`: a route tuple whose handler's request is typed from the
 * route's `validate` schemas. A Standard Schema object (zod, valibot, …) gives its output type; a
 * `priv/schemas` name gives its type in `VelaSchemas` (written into `.vela/routes.d.ts` by the Vite
 * plugin), or `unknown` values for a name not there; `any` while the file has not been written.
 */
import type { MaybePromise } from '../contracts/primitives.ts'
import type { HandlerResult, RouteOptions, RouteValidation } from '../contracts/routes.ts'
import type { StandardSchemaV1 } from '../contracts/standard-schema.ts'
import type { VelaRequest } from '../request.ts'
import type { VelaSchemas } from './vela-schemas.ts'

/**
 * Whether `.vela/routes.d.ts` has filled `VelaSchemas` in. Before it has (a fresh checkout, before
 * the first `vite`, `vitest` or `vela types`), a schema name types its part as `any`, so the app
 * compiles; once it has, a name gives its type, and a name not there `unknown` values.
 */
type SchemasKnown = [keyof VelaSchemas] extends [never] ? false : true

/**
 * What a schema validates to: a Standard Schema's output type; for a `priv/schemas` name, its
 * `VelaSchemas` member (one interface lookup), else `Named` (`any` until the file is written);
 * `Absent` without a schema.
 */
type Output<S, Named, Absent> = [S] extends [undefined]
  ? Absent
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : S extends keyof VelaSchemas
      ? VelaSchemas[S]
      : SchemasKnown extends true
        ? Named
        : // biome-ignore lint/suspicious/noExplicitAny: a name's type before the generated file describes it
          any

type Part<V, K extends keyof RouteValidation> = V extends { readonly [P in K]?: infer S } ? S : undefined

type BodyOf<V> = Output<Part<V, 'body'>, unknown, unknown>

/**
 * The request a handler of a route with `validate` receives: `json` (the body), `query`,
 * `bindings` (the path parameters) and `params` typed as the schemas' outputs; everything else
 * as on `VelaRequest`.
 */
export type ValidatedRequest<V extends RouteValidation | undefined, A = unknown> = Omit<
  VelaRequest<A>,
  'json' | 'query' | 'bindings' | 'params'
> & {
  /** The body as validated (the JSON body; a form's fields are in `params`). */
  json: BodyOf<V>
  /** The query as validated: values coerced to the schema's types, defaults filled in. */
  readonly query: Output<Part<V, 'query'>, Readonly<Record<string, unknown>>, VelaRequest['query']>
  /** The path parameters as validated (coerced like the query). */
  readonly bindings: Output<Part<V, 'params'>, Readonly<Record<string, unknown>>, VelaRequest['bindings']>
  /** The body's fields, when the body is an object (JSON or form). */
  params: BodyOf<V> extends Record<string, unknown> ? BodyOf<V> : Record<string, unknown>
}

/** A handler of a route with `validate`: `(req: ValidatedRequest<V, A>) => reply`. For controllers defined apart from their route. */
export type ValidatedHandler<V extends RouteValidation | undefined, A = unknown> = (
  req: ValidatedRequest<V, A>,
) => MaybePromise<HandlerResult>

/**
 * A route tuple `['POST /notes', handler, options]` whose handler is typed from `options.validate`.
 *
 * The path names the method as in any route (`'GET /notes'`, `'ALL /hooks'`).
 *
 * @example
 * ```ts
 * import { z } from 'zod'
 * import { defineRoute, defineRoutes, json } from 'vela'
 *
 * const Note = z.object({ title: z.string().min(1), body: z.string().default('') })
 * const Page = z.object({ limit: z.coerce.number().int().max(100).default(20) })
 *
 * export default defineRoutes({
 *   prefix: '/api',
 *   security: false,
 *   routes: [
 *     defineRoute('GET /notes', (req) => json({ limit: req.query.limit }), { validate: { query: Page } }),
 *     defineRoute('POST /notes', (req) => json({ title: req.json.title }, { status: 201 }), { validate: { body: Note } }),
 *   ],
 * })
 * ```
 */
export function defineRoute<
  const V extends RouteValidation,
  A = unknown,
  R extends MaybePromise<HandlerResult> = MaybePromise<HandlerResult>,
>(
  path: string,
  handler: (req: ValidatedRequest<V, A>) => R,
  options: RouteOptions & { readonly validate: V },
): DefinedRoute<V, R> {
  // The runtime hands the handler the validated request; the route list holds handlers of any request type.
  return [path, handler as unknown as (req: VelaRequest) => R, options]
}

/**
 * The route tuple `defineRoute` returns: a `Route` that keeps, as types, what its handler replies
 * and the schemas of its `validate`, so the typed client (`.vela/routes.d.ts`) reads a Standard
 * Schema's body type and an inline handler's replies from it, as from a tuple written in
 * `defineRoutes`.
 */
export type DefinedRoute<V extends RouteValidation, R> = readonly [
  path: string,
  handler: (req: VelaRequest) => R,
  options: Omit<RouteOptions, 'validate'> & { readonly validate: V },
]

/**
 * Types a route's `validate` option on its own, so a controller defined in another file can name
 * its request type as `ValidatedRequest<typeof input>`.
 *
 * @example
 * ```ts
 * // src/controllers/notes_controller.ts
 * import { z } from 'zod'
 * import { defineValidation, json, type ValidatedRequest } from 'vela'
 *
 * export const noteInput = defineValidation({ body: z.object({ title: z.string().min(1) }) })
 * export const create = (req: ValidatedRequest<typeof noteInput>) => json({ title: req.json.title }, { status: 201 })
 *
 * // src/routes/api.ts: ['POST /notes', notes.create, { validate: notes.noteInput }]
 * ```
 */
export function defineValidation<const V extends RouteValidation>(validation: V): V {
  return validation
}
