/**
 * Schema edits under the dev server (and the first job in `src/jobs/`, which brings the migration
 * of the job engine's tables: jobs-migration.ts): when the app has `src/schemas/`, the swap that loads a
 * changed schema (or a module a schema imports) first writes the migration the schemas now need,
 * so the new app's start hook (`migrate(repo, migrations)`) applies it. The dev server runs this
 * step as it starts too. The generator is `vela migrations generate`'s (generateMigration, with
 * migrations.ts's loadSchemas and migrationsDir), given the dev app's own module runner to load
 * the schemas and the existing migrations: no second Vite server, and the modules it evaluates are
 * the ones the app then uses.
 *
 * A change that needs a decision (a column gone while another appears: maybe a rename) writes
 * nothing and prints the generator's message with the flags to pass to `vela migrations
 * generate`, once for as long as the decision is the same; the swap goes on with the schemas as
 * edited (queries on the undecided columns fail until the migration exists).
 *
 * The same step rewrites the JSON Schemas `vela schemas` writes (`priv/schemas/<name>.json` and
 * `<name>_patch.json`, json-schemas-write.ts), hand-written files left alone, before the
 * migration: a schema needing a migration decision still gets its JSON Schema.
 */
import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { MigrationDecisionError } from '../../dbl/migrations/diff.ts'
import { UnsafeMigrationError } from '../../dbl/migrations/safety.ts'
import { generateMigration } from '../../dbl/migrations/generate.ts'
import type { ImportModule } from '../app-loader.ts'
import { writeJsonSchemas } from '../json-schemas-write.ts'
import { JOBS_DIR } from '../discover.ts'
import { writeJobsMigration } from '../jobs-migration.ts'
import { loadSchemas, migrationsDir } from '../migrations.ts'

export interface SchemaStep {
  /** Whether the app has `src/schemas/` and `file` is in it. */
  holds(file: string): boolean
  /** Writes the migration the schemas need; returns its path, or null when none was written. */
  run(load: ImportModule): Promise<string | null>
}

export function schemaStep(root: string, log: (message: string) => void): SchemaStep {
  const dir = resolve(root, 'src/schemas')
  let undecided: string | undefined
  const jobsDir = resolve(root, JOBS_DIR)
  return {
    holds: (file) => (file.startsWith(`${dir}/`) && existsSync(dir)) || file.startsWith(`${jobsDir}/`),
    async run(load) {
      // The first job added to src/jobs/ brings the migration of the job engine's tables.
      const jobs = await writeJobsMigration(root, migrationsDir(root), load)
      if (jobs) log(`src/jobs has jobs: generated ${relative(root, jobs)}`)
      if (!existsSync(dir)) return jobs
      const json = await writeJsonSchemas(root, load)
      for (const file of json.written) log(`wrote ${relative(root, file)} from src/schemas`)
      try {
        const result = await generateMigration({
          schemas: await loadSchemas(root, load),
          migrationsDir: migrationsDir(root),
          importModule: load,
        })
        undecided = undefined
        for (const w of result.warnings) console.warn(`vela: [migrations] ${w}`)
        if (result.written) log(`src/schemas changed: generated ${relative(root, result.written)}`)
        return result.written ?? jobs
      } catch (err) {
        if (!(err instanceof MigrationDecisionError || err instanceof UnsafeMigrationError)) throw err
        if (err.message !== undecided) {
          undecided = err.message
          console.error(
            `vela: ${err.message}\nThe dev server does not decide this: run \`vela migrations generate\` with the flags above (--rename, --drop-column, --allow-unsafe; or add renamedFrom to the field); the next swap applies the migration it writes.`,
          )
        }
        return jobs
      }
    },
  }
}
