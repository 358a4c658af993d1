/**
 * `vela migrations generate` and `vela migrate [--status | --rollback [n]]` for an app folder:
 * schemas come from `src/schemas/*.ts` (every exported schema), migrations live in
 * `src/migrations/`, and the repository is the `repo` export of `src/repo.ts`. The build runs the
 * generator too (`generateForBuild`, the plugin's `buildStart`). All of them are loaded through a
 * Vite module runner with the app's Vite config (build-import.ts), as `vela serve` loads them, so
 * aliases and virtual modules resolve.
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Repo } from '../dbl/repo.ts'
import type { AnySchema } from '../dbl/schema.ts'
import { isSchema } from '../dbl/schema.ts'
import type { Decisions } from '../dbl/migrations/diff.ts'
import { MigrationDecisionError } from '../dbl/migrations/diff.ts'
import type { GenerateResult } from '../dbl/migrations/generate.ts'
import { generateMigration } from '../dbl/migrations/generate.ts'
import { loadMigrations } from '../dbl/migrations/load.ts'
import { migrate, rollback, status } from '../dbl/migrations/migrator.ts'
import type { ImportModule } from './build-import.ts'
import { withAppRunner } from './build-import.ts'
import { VelaError } from '../server/errors/vela-error.ts'

export async function loadSchemas(root: string, load: ImportModule): Promise<AnySchema[]> {
  const dir = resolve(root, 'src/schemas')
  const files = (await readdir(dir).catch(() => [])).filter((f) => /\.[cm]?[jt]s$/.test(f)).sort()
  const schemas: AnySchema[] = []
  for (const f of files) for (const value of Object.values(await load(join(dir, f)))) if (isSchema(value)) schemas.push(value)
  return schemas
}

export async function loadRepo(root: string, load: ImportModule): Promise<Repo> {
  const file = resolve(root, 'src/repo.ts')
  const mod = await load(file)
  const repo = (mod.repo ?? mod.default) as Repo | undefined
  if (!repo || typeof repo.adapter !== 'function') throw new VelaError('VELA_ERR_CONFIG', `${file} must export the repository as \`repo\`: export const repo = defineRepo({ … })`)
  return repo
}

export const migrationsDir = (root: string) => resolve(root, 'src/migrations')

export async function generate(root: string, decisions: Decisions = {}): Promise<void> {
  const result = await withAppRunner(root, {}, async (load) =>
    generateMigration({ schemas: await loadSchemas(root, load), migrationsDir: migrationsDir(root), decisions, importModule: load }),
  )
  for (const w of result.warnings) console.warn(`warning: ${w}`)
  console.log(result.written ? `Generated ${result.written}` : 'Migrations already match the schemas: nothing generated')
}

/**
 * `buildStart`: when the app has `src/schemas/`, writes the migration its schemas need (before the
 * bundle compiles `src/migrations` in). A change that needs a decision (a possible rename, a drop)
 * is never guessed: the build fails with the generator's message and the command to run.
 */
export async function generateForBuild(root: string, mode: string): Promise<GenerateResult | undefined> {
  if (!existsSync(resolve(root, 'src/schemas'))) return undefined
  try {
    // `runner`: the build's process may have no TypeScript loader. The build's mode: its `.env` files.
    return await withAppRunner(root, { mode, configLoader: 'runner' }, async (load) =>
      generateMigration({ schemas: await loadSchemas(root, load), migrationsDir: migrationsDir(root), importModule: load }),
    )
  } catch (err) {
    if (!(err instanceof MigrationDecisionError)) throw err
    const stop = new Error(
      `${err.message}\nThe build does not decide this: run \`vela migrations generate\` with the --rename or --drop-column flags above (or add renamedFrom to the field), then build again.`,
    )
    // An expected stop, not a crash: the build's report shows the message without a stack.
    stop.stack = undefined
    throw stop
  }
}

export async function runMigrations(root: string, mode: { status?: boolean; rollback?: number }): Promise<void> {
  await withAppRunner(root, {}, async (load) => {
    const repo = await loadRepo(root, load)
    try {
      const migrations = await loadMigrations(migrationsDir(root), { importModule: load })
      if (mode.status) {
        for (const m of await status(repo, migrations)) console.log(`${(m.applied ? 'up' : 'pending').padEnd(8)} ${m.version} ${m.name}${m.file ? '' : ' (file missing)'}`)
      } else if (mode.rollback) {
        const done = await rollback(repo, migrations, { steps: mode.rollback })
        console.log(done.length ? done.map((m) => `rolled back ${m.version} ${m.name}`).join('\n') : 'nothing to roll back')
      } else {
        const done = await migrate(repo, migrations)
        console.log(done.length ? done.map((m) => `migrated ${m.version} ${m.name}`).join('\n') : 'already up to date')
      }
    } finally {
      await repo.stop()
    }
  })
}
