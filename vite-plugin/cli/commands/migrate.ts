/**
 * `vela migrations generate` and `vela migrate [--status | --rollback [n]]` for an app folder: the
 * schemas, repository and migrations (migrations.ts) are loaded through one runner per command
 * (load.ts), with the app's Vite config.
 */
import type { Decisions } from '../../../dbl/migrations/diff.ts'
import { generateMigration } from '../../../dbl/migrations/generate.ts'
import { loadMigrations } from '../../../dbl/migrations/load.ts'
import { migrate, rollback, status } from '../../../dbl/migrations/migrator.ts'
import type { UnsafeCheck } from '../../../dbl/migrations/safety.ts'
import { loadRepo, loadSchemas, migrationsDir } from '../../migrations.ts'
import { writeJobsMigration } from '../../jobs-migration.ts'
import { withAppRunner } from './load.ts'

export async function generate(root: string, decisions: Decisions = {}): Promise<void> {
  const result = await withAppRunner(root, {}, async (load) =>
    generateMigration({
      schemas: await loadSchemas(root, load),
      migrationsDir: migrationsDir(root),
      decisions,
      importModule: load,
    }),
  )
  for (const w of result.warnings) console.warn(`warning: ${w}`)
  const jobs = await withAppRunner(root, {}, (load) => writeJobsMigration(root, migrationsDir(root), load))
  if (result.written) console.log(`Generated ${result.written}`)
  if (jobs) console.log(`Generated ${jobs}`)
  if (!result.written && !jobs) console.log('Migrations already match the schemas: nothing generated')
}

export async function runMigrations(
  root: string,
  mode: { status?: boolean; rollback?: number; allowUnsafe?: readonly UnsafeCheck[] },
): Promise<void> {
  await withAppRunner(root, {}, async (load) => {
    const repo = await loadRepo(root, load)
    try {
      const migrations = await loadMigrations(migrationsDir(root), { importModule: load })
      if (mode.status) {
        for (const m of await status(repo, migrations))
          console.log(
            `${(m.applied ? 'up' : 'pending').padEnd(8)} ${m.version} ${m.name}${m.file ? '' : ' (file missing)'}`,
          )
      } else if (mode.rollback) {
        const done = await rollback(repo, migrations, { steps: mode.rollback })
        console.log(
          done.length ? done.map((m) => `rolled back ${m.version} ${m.name}`).join('\n') : 'nothing to roll back',
        )
      } else {
        const done = await migrate(repo, migrations, { allowUnsafe: mode.allowUnsafe })
        console.log(done.length ? done.map((m) => `migrated ${m.version} ${m.name}`).join('\n') : 'already up to date')
      }
    } finally {
      await repo.stop()
    }
  })
}
