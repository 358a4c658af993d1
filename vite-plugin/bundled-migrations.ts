/**
 * `virtual:vela/migrations` at run time: the app's `src/migrations/*` modules, compiled into the
 * app by `import.meta.glob(…, { eager: true })` (app-entry.ts), turned into the list `migrate()`
 * takes, the same shape `loadMigrations(dir)` reads from disk (version and name from the file name,
 * `up` / `down` from the module or its default export). A built server then migrates with no
 * source tree beside it.
 */
import type { Migration } from '../dbl/migrations/load.ts'
import { MIGRATION_FILE } from '../dbl/migrations/load.ts'
import type { MigrationModule } from '../dbl/migrations/operations.ts'

/** The glob's pattern (root-relative, as Vite wants it); tests and helpers are not migrations. */
export const MIGRATIONS_GLOB = ['/src/migrations/*.{ts,mts,js,mjs}', '!**/*.d.ts', '!**/*.test.ts', '!**/*.spec.ts'] as const

/** `{ '/src/migrations/m…_x.ts': module }` → migrations sorted by version; throws on a bad file. */
export function migrationsFromModules(modules: Readonly<Record<string, unknown>>, warn: (msg: string) => void = console.warn): Migration[] {
  const byVersion = new Map<number, Migration>()
  for (const [file, mod] of Object.entries(modules)) {
    const match = MIGRATION_FILE.exec(file.slice(file.lastIndexOf('/') + 1))
    if (!match) {
      warn(`[vela migrations] ignoring ${file}: a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts`)
      continue
    }
    const version = Number(match[1])
    const other = byVersion.get(version)
    if (other) throw new Error(`two migrations share version ${version}: ${other.file} and ${file}`)
    // Either `export function up/down` or `export default defineMigration({ up, down })`.
    const m = mod as Partial<MigrationModule> & { default?: Partial<MigrationModule> }
    const source = typeof m.up === 'function' || typeof m.down === 'function' ? m : m.default
    if (typeof source?.up !== 'function' || typeof source.down !== 'function') {
      throw new Error(`migration ${file} must export up() and down() returning operations`)
    }
    byVersion.set(version, { version, name: match[2]!, file, up: source.up, down: source.down })
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version)
}
