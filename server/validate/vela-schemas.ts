/**
 * The request-side types of the app's `priv/schemas` files, by name, for `defineRoute`.
 */

/**
 * The app's `priv/schemas/<name>.json` files as request types (`readOnly` properties left out),
 * keyed by name. Empty here: the `.vela/routes.d.ts` file the Vite plugin writes (and `vela types`)
 * adds one member per schema the routes validate with, so `defineRoute` types `req.json`,
 * `req.query` and `req.bindings` from a schema name. A name not in it gives `unknown` values.
 *
 * @example
 * ```ts
 * // written into .vela/routes.d.ts
 * declare module 'vela' {
 *   interface VelaSchemas {
 *     product: { name: string; price: number }
 *   }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface VelaSchemas {}
