/**
 * An app's schemas, repository and migrations folder, as the migration generator and the migrator
 * need them: schemas come from `src/schemas/*.ts` (every exported schema), migrations live in
 * `src/migrations/`, and the repository is the `repo` export of `src/repo.ts`. Each is loaded
 * through a runner's `load` (app-loader.ts), so aliases and virtual modules resolve as under
 * `vela serve`. Used by the CLI (cli/commands/migrate.ts), the dev server (dev/dev-schema.ts) and the
 * build (`generateForBuild`, the plugin's `buildStart`).
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Repo } from '../dbl/repo.ts'
import type { AnySchema } from '../dbl/schema.ts'
import { isSchema } from '../dbl/schema.ts'
import { MigrationDecisionError } from '../dbl/migrations/diff.ts'
import { UnsafeMigrationError } from '../dbl/migrations/safety.ts'
import type { GenerateResult } from '../dbl/migrations/generate.ts'
import { generateMigration } from '../dbl/migrations/generate.ts'
import { VelaError } from '../server/errors/vela-error.ts'
import type { ImportModule } from './app-loader.ts'
import type { WithApp } from './build/build-runner.ts'
import { writeJobsMigration } from './jobs-migration.ts'

export async function loadSchemas(root: string, load: ImportModule): Promise<AnySchema[]> {
  const dir = resolve(root, 'src/schemas')
  const files = (await readdir(dir).catch(() => [])).filter((f) => /\.[cm]?[jt]s$/.test(f)).sort()
  const schemas: AnySchema[] = []
  for (const f of files)
    for (const value of Object.values(await load(join(dir, f)))) if (isSchema(value)) schemas.push(value)
  return schemas
}

export async function loadRepo(root: string, load: ImportModule): Promise<Repo> {
  const file = resolve(root, 'src/repo.ts')
  const mod = await load(file)
  const repo = (mod.repo ?? mod.default) as Repo | undefined
  if (!repo || typeof repo.adapter !== 'function')
    throw new VelaError(
      'VELA_ERR_CONFIG',
      `${file} must export the repository as \`repo\`: export const repo = defineRepo({ … })`,
    )
  return repo
}

export const migrationsDir = (root: string) => resolve(root, 'src/migrations')

const NOTHING: GenerateResult = { written: null, name: null, operations: [], down: [], warnings: [] }

/**
 * `buildStart`: when the app has `src/schemas/`, writes the migration its schemas need (before the
 * bundle compiles `src/migrations` in). A change that needs a decision (a possible rename, a drop)
 * is never guessed: the build fails with the generator's message and the command to run.
 */
export async function generateForBuild(root: string, withApp: WithApp): Promise<GenerateResult | undefined> {
  const jobs = await withApp((load) => writeJobsMigration(root, migrationsDir(root), load))
  if (!existsSync(resolve(root, 'src/schemas'))) return jobs ? { ...NOTHING, written: jobs } : undefined
  try {
    return await withApp(async (load) =>
      generateMigration({
        schemas: await loadSchemas(root, load),
        migrationsDir: migrationsDir(root),
        importModule: load,
      }),
    )
  } catch (err) {
    if (!(err instanceof MigrationDecisionError || err instanceof UnsafeMigrationError)) throw err
    const stop = new Error(
      `${err.message}\nThe build does not decide this: run \`vela migrations generate\` with the flags above (--rename, --drop-column, --allow-unsafe; or add renamedFrom to the field), then build again.`,
    )
    // An expected stop, not a crash: the build's report shows the message without a stack.
    stop.stack = undefined
    throw stop
  }
}
