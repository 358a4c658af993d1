/**
 * The app's JSON Schema files, `priv/schemas/<name>.json`, by name. The Vite plugin's app module
 * bundles them in (so a built server needs no file at run time); an app made by `createApp`
 * without them reads the folder under its root, once, when a route names a schema.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { VelaError } from '../errors/vela-error.ts'

/** JSON Schema documents by name (`product` for `priv/schemas/product.json`). */
export type NamedSchemas = Readonly<Record<string, object>>

/** Where the files are, from the app root. */
export const SCHEMAS_DIR = 'priv/schemas'

/** `/priv/schemas/product.json` (an `import.meta.glob` key) or `product.json` → `product`. */
export const schemaName = (key: string): string => (key.split(/[\\/]/).pop() ?? key).replace(/\.json$/, '')

/** Keys of a glob (or any path) to names; a module object's `default` is taken when it has one. */
export function namedSchemas(modules: Readonly<Record<string, unknown>>): NamedSchemas {
  const out: Record<string, object> = {}
  for (const [key, mod] of Object.entries(modules)) {
    const doc =
      typeof mod === 'object' && mod !== null && 'default' in mod ? (mod as { default: unknown }).default : mod
    if (typeof doc === 'object' && doc !== null) out[schemaName(key)] = doc
  }
  return out
}

/** Reads `priv/schemas/*.json` under `root`; none when the folder does not exist. */
export function readSchemaDir(root: string): NamedSchemas {
  const dir = resolve(root, SCHEMAS_DIR)
  if (!existsSync(dir)) return {}
  const out: Record<string, object> = {}
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    try {
      out[schemaName(file)] = JSON.parse(readFileSync(join(dir, file), 'utf8')) as object
    } catch (err) {
      throw new VelaError(
        'VELA_ERR_ROUTE',
        `${SCHEMAS_DIR}/${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
      )
    }
  }
  return out
}
