/**
 * The engine's tables as a migration: `vela migrate` installs them like any other migration of the
 * app. The SQL is pg-boss's own construction script (`getConstructionPlans`) in the `vela_jobs`
 * schema, with its `BEGIN` / `COMMIT` taken off: the migrator runs every migration in a transaction
 * of its own, with its version row. pg-boss's advisory lock inside it stays, so an instance starting
 * pg-boss meanwhile waits for the install to commit.
 *
 * **Choice:** the migration installs the schema of the pg-boss version Vela ships. A later pg-boss
 * release with a newer schema is migrated by pg-boss itself when the jobs start (its own migrations,
 * under the same lock: one instance applies them), since its upgrade steps depend on the version a
 * database holds, which a migration file written once cannot know.
 *
 * pg-boss is imported only when the migration runs (deferred SQL, which the migrator loads): an
 * app's migrations are read by commands that never apply them (`vela routes`, the generator), and
 * loading pg-boss costs them a fifth of a second of CPU.
 */
import { execute } from '../dbl/migrations/operations.ts'
import type { Operation } from '../dbl/migrations/operations.ts'

/** The PostgreSQL schema that holds the jobs tables. */
export const JOBS_SCHEMA = 'vela_jobs'

/** The first line of the install SQL: how the generator recognises a migration that installs the jobs tables. */
export const JOBS_TABLES_MARKER = '-- vela/jobs: the job engine tables (pg-boss)'

/** Takes pg-boss's `BEGIN; … COMMIT;` wrapper off a script; throws if it is not there (a pg-boss change to look at). */
export function unwrapTransaction(sql: string): string {
  const m = /^\s*BEGIN;\s*([\s\S]*?)\s*COMMIT;\s*$/.exec(sql)
  if (!m) throw new Error('vela/jobs: pg-boss construction SQL is no longer one BEGIN … COMMIT block')
  return m[1]!
}

/** pg-boss's construction script for the jobs schema, pg-boss loaded on first use. */
async function constructionPlans(): Promise<string> {
  const { getConstructionPlans } = await import('pg-boss')
  return getConstructionPlans(JOBS_SCHEMA)
}

/** The install SQL: the marker line, then pg-boss's script without its transaction. */
export async function installSql(): Promise<string> {
  return `${JOBS_TABLES_MARKER}\n${unwrapTransaction(await constructionPlans())}`
}

/** The schema version the install SQL writes (pg-boss's `version` row). */
export async function engineSchemaVersion(): Promise<number> {
  const m = /INSERT INTO \S+\.version\s*\(version\) VALUES \('(\d+)'\)/.exec(await constructionPlans())
  if (!m) throw new Error('vela/jobs: cannot read the schema version from pg-boss construction SQL')
  return Number(m[1])
}

/**
 * The migration operations that install (`up`) and remove (`down`) the jobs tables. A migration
 * file the generator writes when the app has `src/jobs/` calls them.
 *
 * @example
 * // src/migrations/m20261208090000_create_jobs.ts
 * import { jobTables } from 'vela/jobs'
 *
 * export const up = () => jobTables.up()
 * export const down = () => jobTables.down()
 */
export const jobTables = {
  up(): Operation[] {
    return [execute({ about: JOBS_TABLES_MARKER, load: installSql })]
  },
  down(): Operation[] {
    return [execute(`DROP SCHEMA IF EXISTS ${JOBS_SCHEMA} CASCADE`)]
  },
}

/** Whether a migration's operations install the jobs tables. */
export const installsJobTables = (ops: readonly Operation[]): boolean =>
  ops.some(
    (op) => op.op === 'execute' && (typeof op.sql === 'string' ? op.sql : op.sql.about).startsWith(JOBS_TABLES_MARKER),
  )
