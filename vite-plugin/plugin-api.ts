/**
 * What the plugin object `vela()` returns exposes to other code in its `api` (Vite's place for a
 * plugin's API: found by name in a resolved config's `plugins`). `vela release` reads it after its
 * build (release.ts). A leaf, so the loader can name the type without importing the plugin.
 */
import type { Plugin } from 'vite'

/** What the plugin exposes in its Vite `api`: the files its last build generated, for `vela release` and other tools. */
export interface VelaPluginApi {
  /**
   * The files the last build wrote besides its output, as absolute paths in the order written: the
   * migration `src/schemas` needed (`buildStart`), then the OpenAPI files (`writeBundle`). Emptied
   * when a server build starts.
   */
  readonly generated: readonly string[]
}

export type VelaPlugin = Plugin<VelaPluginApi>

/** The name `vela()` registers under: how a config's `vela()` is found. */
export const PLUGIN_NAME = 'vela'
