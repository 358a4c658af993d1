/**
 * Reading `src/migrations/`: file name → version and name, module → `up()` / `down()`. Files run
 * through dynamic `import()`, so `.ts` migrations need a TypeScript-aware loader (Vite, vitest, tsx),
 * which is how the dev server, the CLI and the tests all run.
 */
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { MigrationModule, Operation } from './operations.ts'
import { checkNames } from './safety.ts'

/** A migration read from its file: version and name from the file name, `up()` and `down()` from the module. */
export interface Migration extends MigrationModule {
  /** The 14-digit timestamp, as a number (fits a JS number exactly; stored as BIGINT). */
  readonly version: number
  /** The part after the timestamp: `create_products`. */
  readonly name: string
  /** Where it came from, for error messages. */
  readonly file?: string
}

/** `m20240131120000_create_products.ts` */
export const MIGRATION_FILE = /^m(\d{14})_([a-z0-9_]+)\.(ts|mts|js|mjs)$/

/** Files that are plainly not migrations and are skipped without a word. */
const UNRELATED = /(\.d\.ts|\.test\.ts|\.spec\.ts|\.map|\.md)$|^\./

export interface LoadOptions {
  /** Called for a source file whose name is not a migration name (default: a console warning). */
  onIgnored?: (file: string, reason: string) => void
  /**
   * Loads one file (default: `import()` of its file URL). The Vite plugin passes its module runner
   * here so edited migrations are re-read instead of served from Node's module cache.
   */
  importModule?: (file: string) => Promise<unknown>
}

export function migrationFileName(version: string, name: string): string {
  return `m${version}_${name}.ts`
}

/**
 * The migrations of a folder (`m<YYYYMMDDHHMMSS>_<name>.ts` files), sorted by version. A missing
 * folder means no migrations. `.ts` files need a TypeScript-aware loader (Vite, vitest, tsx).
 *
 * @example
 * const applied = await migrate(repo, await loadMigrations('src/migrations'))
 */
export async function loadMigrations(dir: string, opts: LoadOptions = {}): Promise<Migration[]> {
  const onIgnored = opts.onIgnored ?? ((file, reason) => console.warn(`[vela migrations] ignoring ${file}: ${reason}`))
  let entries: string[]
  try {
    // Folders are skipped even when named like a migration; symlinks to files are followed by import().
    entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => e.name)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  const found: { version: number; name: string; file: string }[] = []
  for (const entry of entries.sort()) {
    if (UNRELATED.test(entry) || !/\.(ts|mts|js|mjs)$/.test(entry)) continue
    const file = path.join(dir, entry)
    const match = MIGRATION_FILE.exec(entry)
    if (!match) {
      onIgnored(file, 'a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts (name: lowercase letters, digits, _)')
      continue
    }
    found.push({ version: Number(match[1]), name: match[2]!, file })
  }
  const migrations: Migration[] = []
  for (const f of sortedByVersion(found)) {
    const mod = await importMigration(
      f.file,
      opts.importModule ?? ((file) => import(/* @vite-ignore */ pathToFileURL(file).href)),
    )
    migrations.push({ ...f, ...mod })
  }
  return migrations
}

/** Sorted by version; two files with the same version are an error naming both. */
export function sortedByVersion<T extends { readonly version: number; readonly file?: string }>(
  list: readonly T[],
): T[] {
  const byVersion = new Map<number, T>()
  for (const m of list) {
    const other = byVersion.get(m.version)
    if (other) throw new Error(`two migrations share version ${m.version}: ${other.file} and ${m.file}`)
    byVersion.set(m.version, m)
  }
  return [...list].sort((a, b) => a.version - b.version)
}

async function importMigration(
  file: string,
  importModule: (file: string) => Promise<unknown>,
): Promise<MigrationModule> {
  let mod: unknown
  try {
    mod = await importModule(file)
  } catch (err) {
    throw new Error(`migration ${file} could not be loaded: ${(err as Error).message}`, { cause: err })
  }
  return migrationOfModule(file, mod)
}

/**
 * `up` / `down` (and `safetyAssured`, `transaction`) of a loaded migration module: `export function
 * up/down` or `export default defineMigration({ up, down })`.
 */
export function migrationOfModule(file: string, loaded: unknown): MigrationModule {
  const mod = (loaded ?? {}) as Record<string, unknown>
  const source =
    typeof mod.up === 'function' || typeof mod.down === 'function'
      ? mod
      : (mod.default as Record<string, unknown> | undefined)
  const up = source?.up
  const down = source?.down
  const missing = [typeof up !== 'function' && 'up()', typeof down !== 'function' && 'down()'].filter(Boolean)
  if (missing.length > 0) {
    throw new Error(
      `migration ${file} does not export ${missing.join(' and ')}; a migration exports up() and down() returning operations`,
    )
  }
  const transaction = source?.transaction
  if (transaction !== undefined && typeof transaction !== 'boolean')
    throw new Error(`migration ${file}: \`transaction\` must be true or false, got ${JSON.stringify(transaction)}`)
  const assured = source?.safetyAssured
  if (assured !== undefined && !Array.isArray(assured))
    throw new Error(`migration ${file}: \`safetyAssured\` must be an array of safety check names`)
  return {
    up: checked(file, 'up', up as () => unknown),
    down: checked(file, 'down', down as () => unknown),
    ...(assured ? { safetyAssured: checkNames(assured, `migration ${file}: safetyAssured`) } : {}),
    ...(transaction === false ? { transaction: false } : {}),
  }
}

/** Wraps up/down so a wrong return value is reported with the file, not as a crash deep in the DDL. */
function checked(file: string, which: string, fn: () => unknown): () => Operation[] {
  return () => {
    const ops = fn()
    if (!Array.isArray(ops)) throw new Error(`migration ${file}: ${which}() must return an array of operations`)
    for (const op of ops) {
      if (typeof op !== 'object' || op === null || typeof (op as { op?: unknown }).op !== 'string') {
        throw new Error(`migration ${file}: ${which}() returned ${JSON.stringify(op)}, which is not an operation`)
      }
    }
    return ops as Operation[]
  }
}
