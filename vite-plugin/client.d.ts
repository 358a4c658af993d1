/**
 * `vela/client`: the types of the virtual modules `vela/vite` serves to an app (the typed client
 * itself is client/index.ts, which references this file), enabled the way Vite's
 * own are (`vite/client`): `"types": ["node", "vela/client"]` in the app's tsconfig.json, or
 * `/// <reference types="vela/client" />` in a `.d.ts` of the app.
 */

declare module 'virtual:vela/app' {
  /** The app's `src/app.ts` config with the discovered `src/routes` and `src/controllers` merged in. */
  export const config: import('vela').AppConfig
  /**
   * Creates the app from that config (routes compiled, plugins initialised; not started).
   *
   * @example
   * import { create } from 'virtual:vela/app'
   *
   * const app = create()
   * await app.start()
   * const res = await app.fetch(new Request('http://localhost/api/products'))
   * await app.stop()
   */
  export function create(opts?: import('vela').CreateAppOptions): import('vela').VelaApp
}

declare module 'virtual:vela/migrations' {
  /** The app's `src/migrations/*`, compiled in and sorted by version: `migrate(repo, migrations)`. */
  export const migrations: import('vela/dbl').Migration[]
}

declare module 'virtual:vela/routes' {
  /**
   * The app's routes, one entry per `METHOD /path` (params, query, body, replies per status): the
   * Vite plugin fills this interface in `.vela/routes.d.ts`, written at `vite`, `vite build`,
   * `vitest` start and `vela types`. Give it to `createClient<Routes>(baseUrl)` from `vela/client`.
   */
  export interface Routes {}
}
