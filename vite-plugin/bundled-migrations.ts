/**
 * `virtual:vela/migrations` at run time: the app's `src/migrations/*` modules, compiled into the
 * app by `import.meta.glob(…, { eager: true })` (app-entry.ts), turned into the list `migrate()`
 * takes, the same shape `loadMigrations(dir)` reads from disk (version and name from the file name,
 * `up` / `down` from the module or its default export). A built server then migrates with no
 * source tree beside it.
 */
import type { Migration } from '../dbl/migrations/load.ts'
import { MIGRATION_FILE, migrationOfModule, sortedByVersion } from '../dbl/migrations/load.ts'

/** The glob's pattern (root-relative, as Vite wants it); tests and helpers are not migrations. */
export const MIGRATIONS_GLOB = [
  '/src/migrations/*.{ts,mts,js,mjs}',
  '!**/*.d.ts',
  '!**/*.test.ts',
  '!**/*.spec.ts',
] as const

/** `{ '/src/migrations/m…_x.ts': module }` → migrations sorted by version; throws on a bad file. */
export function migrationsFromModules(
  modules: Readonly<Record<string, unknown>>,
  warn: (msg: string) => void = console.warn,
): Migration[] {
  const found: Migration[] = []
  for (const [file, mod] of Object.entries(modules)) {
    const match = MIGRATION_FILE.exec(file.slice(file.lastIndexOf('/') + 1))
    if (!match) {
      warn(`[vela migrations] ignoring ${file}: a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts`)
      continue
    }
    found.push({ version: Number(match[1]), name: match[2]!, file, ...migrationOfModule(file, mod) })
  }
  return sortedByVersion(found)
}
