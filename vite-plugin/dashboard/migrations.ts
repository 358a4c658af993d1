/**
 * The app page's migrations: which are applied and which pending, as `vela migrate --status`
 * lists them, read from the app's own repository (`src/repo.ts`) and `src/migrations/`, loaded
 * through the dev app's module runner, so it is the repository instance the app runs on (an
 * embedded database is never opened twice). Answers within a bound: a database that does not
 * answer costs the page a line, not its load.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadMigrations } from '../../dbl/migrations/load.ts'
import { status } from '../../dbl/migrations/migrator.ts'
import type { ImportModule } from '../app-loader.ts'
import { loadRepo, migrationsDir } from '../migrations.ts'

/** One migration as the page lists it. */
export interface MigrationRow {
  readonly version: number
  readonly name: string
  readonly state: 'applied' | 'pending'
  /** When it was applied (ISO), if it was. */
  readonly appliedAt: string
  /** Applied, but its file is gone from `src/migrations/`. */
  readonly missingFile: boolean
}

/** What the page shows: no repository, the list, or why it could not be read. */
export type MigrationsView =
  | { readonly state: 'none' }
  | {
      readonly state: 'listed'
      readonly rows: readonly MigrationRow[]
      readonly applied: number
      readonly pending: number
    }
  | { readonly state: 'failed'; readonly message: string }

/** How long the page waits for the database. */
const WITHIN_MS = 3000

/** The migrations of the app in `root`, read through `load` (the dev app's module runner). */
export async function migrationsView(root: string, load: ImportModule, withinMs = WITHIN_MS): Promise<MigrationsView> {
  if (!existsSync(resolve(root, 'src/repo.ts'))) return { state: 'none' }
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<MigrationsView>((resolve) => {
    timer = setTimeout(
      () => resolve({ state: 'failed', message: `the database did not answer within ${withinMs} ms` }),
      withinMs,
    )
  })
  const listed = (async (): Promise<MigrationsView> => {
    const repo = await loadRepo(root, load)
    const migrations = await loadMigrations(migrationsDir(root), { importModule: load })
    const rows: MigrationRow[] = (await status(repo, migrations)).map((m) => ({
      version: m.version,
      name: m.name,
      state: m.applied ? 'applied' : 'pending',
      appliedAt: m.appliedAt ? new Date(m.appliedAt).toISOString() : '',
      missingFile: m.file === null,
    }))
    return {
      state: 'listed',
      rows,
      applied: rows.filter((r) => r.state === 'applied').length,
      pending: rows.filter((r) => r.state === 'pending').length,
    }
  })().catch((err: unknown) => ({
    state: 'failed' as const,
    message: err instanceof Error ? err.message : String(err),
  }))
  try {
    return await Promise.race([listed, late])
  } finally {
    clearTimeout(timer)
  }
}
