/**
 * The generator: replay the migrations in a folder, diff the result against the schemas, and write
 * a new migration file only when something differs. It never edits an existing file, and it writes
 * nothing when it stops for a missing decision.
 */
import { randomBytes } from 'node:crypto'
import { link, mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { AnySchema } from '../schema.ts'
import { fieldOfColumn } from '../column-names.ts'
import { MigrationDecisionError } from './decisions.ts'
import { planMigration, type Decisions } from './diff.ts'
import { loadMigrations, migrationFileName, type LoadOptions } from './load.ts'
import { columnRenames, modelFromMigrations, modelFromSchemas, schemaRenames } from './model.ts'
import type { Operation } from './operations.ts'
import type { Model } from './table-model.ts'
import { renderMigration } from './render.ts'
import { droppedColumns, heldBackWarning, keepColumns, safePlan } from './generate-safety.ts'

/** What `generateMigration` compares: the app's schemas and its migrations folder, with any decisions it needs. */
export interface GenerateOptions {
  readonly schemas: readonly AnySchema[]
  /** `src/migrations` of the app. Created when missing. */
  readonly migrationsDir: string
  /** The clock, for the file's timestamp (tests pin it). */
  readonly now?: Date
  readonly decisions?: Decisions
  /** Module the written file imports its helpers from (default `vela/dbl`). */
  readonly importFrom?: string
  /** How migration files are loaded; see `LoadOptions.importModule`. */
  readonly importModule?: LoadOptions['importModule']
}

/** What `generateMigration` did: the file it wrote (or `null`), its operations and any warnings. */
export interface GenerateResult {
  /** Path of the new file, or null when the migrations already match the schemas. */
  readonly written: string | null
  /** `create_products`, `alter_products` or `update_schema`; null when nothing was written. */
  readonly name: string | null
  readonly operations: readonly Operation[]
  readonly down: readonly Operation[]
  /** Things left alone on purpose (a table no schema uses) or likely to fail (NOT NULL without default). */
  readonly warnings: readonly string[]
}

/**
 * Writes a migration taking the database from what the folder's migrations build to what the
 * schemas describe, or nothing when they already match. Never edits an existing file; throws a
 * `MigrationDecisionError` (writing nothing) when a change may be a rename or drops data, until
 * `decisions` settles it, and an `UnsafeMigrationError` when the migration does what is unsafe on
 * a production database (renames a column, changes its type, …), until `decisions.allowUnsafe` names
 * it. A column whose field is gone is kept, with a warning, until `allowUnsafe` names `drop-column`.
 *
 * @example
 * const result = await generateMigration({ schemas: [User, Note], migrationsDir: 'src/migrations' })
 * if (result.written) console.log(`wrote ${result.written}`)
 * for (const w of result.warnings) console.warn(w)
 */
export async function generateMigration(opts: GenerateOptions): Promise<GenerateResult> {
  const warnings: string[] = []
  const migrations = await loadMigrations(opts.migrationsDir, {
    onIgnored: (file, reason) => warnings.push(`ignored ${file}: ${reason}`),
    importModule: opts.importModule,
  })
  const current = modelFromMigrations(migrations)
  const target = modelFromSchemas(opts.schemas, warnings)
  const decisions: Decisions = {
    ...opts.decisions,
    // An explicit decision wins over the field option, which wins over what a `column` implies.
    renames: {
      ...columnRenames(opts.schemas, current, target),
      ...schemaRenames(opts.schemas),
      ...opts.decisions?.renames,
    },
  }
  let planned = planNaming(current, target, decisions, opts.schemas)
  // Dropped columns not acknowledged are kept, and the rest planned again (generate-safety.ts).
  const held = decisions.allowUnsafe?.includes('drop-column') ? [] : droppedColumns(planned.up)
  if (held.length > 0) {
    planned = planNaming(current, keepColumns(target, current, held), decisions, opts.schemas)
    warnings.push(...held.map(heldBackWarning))
  }
  warnings.push(...planned.warnings)
  if (planned.up.length === 0) return { written: null, name: null, operations: [], down: [], warnings }
  const plan = safePlan(planned, current, decisions.allowUnsafe)
  warnings.push(...plan.warnings)

  const name = migrationName(plan.up)
  const last = migrations.at(-1)?.version
  const file = path.join(opts.migrationsDir, migrationFileName(versionAfter(opts.now ?? new Date(), last), name))
  await mkdir(opts.migrationsDir, { recursive: true })
  // Written whole under a temporary name, then linked into place: a reader (the dev server's
  // watcher) never sees a part of it, and a file that appeared since the folder was read is never
  // overwritten (the link fails). The temporary name goes whatever happens.
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, renderMigration(plan.up, plan.down, opts.importFrom ?? 'vela/dbl', plan.exports), {
      flag: 'wx',
    })
    await link(temp, file)
  } finally {
    await rm(temp, { force: true })
  }
  return { written: file, name, operations: plan.up, down: plan.down, warnings }
}

/** `planMigration`, its decision error naming the fields the schemas store in each column. */
function planNaming(current: Model, target: Model, decisions: Decisions, schemas: readonly AnySchema[]) {
  try {
    return planMigration(current, target, decisions)
  } catch (e) {
    if (!(e instanceof MigrationDecisionError)) throw e
    throw new MigrationDecisionError(e.ambiguities, (table, column) => {
      const schema = schemas.find((s) => s.table === table)
      return (schema && fieldOfColumn(schema, column)) ?? column
    })
  }
}

const fileSafe = (table: string) => table.toLowerCase().replace(/[^a-z0-9_]+/g, '_')

/** `create_<table>` for one new table, `alter_<table>` for changes to one table, else `update_schema`. */
export function migrationName(ops: readonly Operation[]): string {
  const tables = new Set(ops.map((op) => ('table' in op ? op.table : '')))
  if (tables.size !== 1 || tables.has('')) return 'update_schema'
  const [table] = tables as Set<string>
  if (ops.some((op) => op.op === 'dropTable')) return 'update_schema'
  return ops.some((op) => op.op === 'createTable') ? `create_${fileSafe(table!)}` : `alter_${fileSafe(table!)}`
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function timestamp(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}

function parseVersion(v: number): Date {
  const s = String(v)
  const part = (from: number, to: number) => Number(s.slice(from, to))
  return new Date(Date.UTC(part(0, 4), part(4, 6) - 1, part(6, 8), part(8, 10), part(10, 12), part(12, 14)))
}

/** The UTC timestamp of `now`, or one second after the newest migration when the clock is behind it. */
export function versionAfter(now: Date, last: number | undefined): string {
  const stamp = timestamp(now)
  if (last === undefined || Number(stamp) > last) return stamp
  return timestamp(new Date(parseVersion(last).getTime() + 1000))
}
