/**
 * Operations that are safe on an empty database and dangerous on a production one: they fail on
 * existing rows, lock a busy table while it is rewritten or indexed, or break the code still running
 * against the old schema during a deploy. The generator refuses to write them and `migrate` refuses
 * to apply them until the migration acknowledges each one by name (`safetyAssured`), the way
 * strong_migrations' `safety_assured` and excellent_migrations' `@safety_assured [:check]` do.
 *
 * Findings are computed from the operations and the model before them; whether one matters is
 * decided by the caller: the generator cannot see data, so it refuses every finding it can know
 * about, while the migrator asks the database (see `when`).
 */
import { sqlType, storedType, type ResolvedColumn } from './columns.ts'
import type { FieldType } from '../schema.ts'
import type { Model } from './table-model.ts'
import type { Operation } from './operations.ts'
import { UNSAFE_CHECK_NAMES, type UnsafeCheck } from './unsafe-check.ts'

export type { UnsafeCheck } from './unsafe-check.ts'

/** What makes a finding matter at migrate time: the table has any row, or at least `largeTableRows`. */
type When = 'rows' | 'large'

interface CheckInfo {
  readonly when: When
  readonly risk: string
  readonly safeWay: string
}

/** Every check with the risk it guards against and the safe way to get the same result. */
export const UNSAFE_CHECKS: Readonly<Record<UnsafeCheck, CheckInfo>> = {
  'add-not-null-column': {
    when: 'rows',
    risk: 'the existing rows have no value for it, so PostgreSQL refuses the ALTER TABLE',
    safeWay:
      'add the column nullable (or with a default), backfill it, then set NOT NULL in a later migration (modifyColumn(name, { nullable: false }))',
  },
  'create-index': {
    when: 'large',
    risk: 'CREATE INDEX blocks every write to the table until the index is built',
    safeWay:
      'createIndex(table, columns, { concurrently: true }) in a migration exporting `transaction = false` (CREATE INDEX CONCURRENTLY cannot run in a transaction)',
  },
  'change-column-type': {
    when: 'rows',
    risk: 'PostgreSQL rewrites the table under an exclusive lock, and code deployed before the migration reads and writes the old type',
    safeWay:
      'add a column of the new type, write both, backfill it, switch reads to it, then drop the old one (growing a string size or turning a string into text is safe and not checked)',
  },
  'drop-column': {
    when: 'rows',
    risk: 'code still running during the deploy (and any schema still declaring the field) selects the column and fails',
    safeWay:
      'first deploy code that no longer reads the field (remove it from the schema), then deploy the migration that drops the column',
  },
  'add-check': {
    when: 'rows',
    risk: 'PostgreSQL reads every row to check it while holding a lock that blocks reads and writes of the table',
    safeWay:
      'addCheck(table, name, sql, { notValid: true }) (new and changed rows are checked, old ones not read), then validateCheck(table, name) in a later migration (it checks the old rows without blocking writes)',
  },
  'rename-column': {
    when: 'rows',
    risk: 'code still running during the deploy selects the old name and fails until every instance runs the new code',
    safeWay:
      "add a column with the new name, write both, backfill it, switch reads to it, then drop the old column; or keep the column name and change only the field name (column: '<old name>' on the field)",
  },
}

/** One unsafe operation: which check, where, and what it does. */
export interface UnsafeFinding {
  readonly check: UnsafeCheck
  readonly table: string
  /** What the operation does, for the message: `adds the NOT NULL column users.age without a default`. */
  readonly what: string
}

/** Growing a VARCHAR, VARCHAR → text: PostgreSQL changes only the catalog, no rewrite, no lock held long. */
function cheapTypeChange(from: ResolvedColumn | undefined, to: { type: FieldType; size?: number }): boolean {
  if (!from) return false
  const type = storedType(to.type)
  if (sqlType(from.type, from.size) === sqlType(type, to.size)) return true
  if (from.type !== 'string') return false
  return type === 'text' || (type === 'string' && (to.size ?? 255) >= (from.size ?? 255))
}

/**
 * The unsafe operations among `ops`, run on a database described by `before`. Tables created by
 * these operations are new and empty: nothing done to them is unsafe.
 */
export function unsafeOperations(ops: readonly Operation[], before: Model): UnsafeFinding[] {
  const created = new Set<string>()
  const found: UnsafeFinding[] = []
  for (const op of ops) {
    if (op.op === 'createTable') created.add(op.table)
    if (!('table' in op) || created.has(op.table)) continue
    const table = op.table
    const column = (name: string) => before.get(table)?.columns.find((c) => c.name === name)
    if (op.op === 'createIndex' && !op.concurrently) {
      found.push({ check: 'create-index', table, what: `creates the index ${op.name} without CONCURRENTLY` })
    }
    if (op.op === 'addCheck' && !op.notValid) {
      found.push({ check: 'add-check', table, what: `adds the check ${op.name} to ${table}, checking every row` })
    }
    if (op.op !== 'alterTable') continue
    for (const c of op.changes) {
      if (c.change === 'addColumn') {
        const col = c.column
        if (col.nullable === false && !col.primaryKey && col.type !== 'id' && col.default == null)
          found.push({
            check: 'add-not-null-column',
            table,
            what: `adds the NOT NULL column ${table}.${col.name} without a default`,
          })
      } else if (c.change === 'dropColumn') {
        found.push({ check: 'drop-column', table, what: `drops the column ${table}.${c.name}` })
      } else if (c.change === 'renameColumn') {
        found.push({ check: 'rename-column', table, what: `renames the column ${table}.${c.from} to ${c.to}` })
      } else if (
        c.change === 'modifyColumn' &&
        c.set.type !== undefined &&
        !cheapTypeChange(column(c.name), { type: c.set.type, size: c.set.size })
      ) {
        found.push({
          check: 'change-column-type',
          table,
          what: `changes the type of ${table}.${c.name} to ${sqlType(storedType(c.set.type), c.set.size, false)}`,
        })
      }
    }
  }
  return found
}

/** Whether a finding matters only when its table has rows, or only when it is large. */
export const unsafeWhen = (check: UnsafeCheck): When => UNSAFE_CHECKS[check].when

/** Refuses anything in `acknowledged` that is not a check name, naming the valid ones. */
export function checkNames(acknowledged: readonly unknown[], where: string): UnsafeCheck[] {
  for (const name of acknowledged) {
    if (typeof name !== 'string' || !(UNSAFE_CHECK_NAMES as readonly string[]).includes(name))
      throw new Error(
        `${where}: ${JSON.stringify(name)} is not a safety check; the checks are ${UNSAFE_CHECK_NAMES.join(', ')}`,
      )
  }
  return acknowledged as UnsafeCheck[]
}

/** The lines explaining each finding: what, risk, safe way. */
export function findingLines(findings: readonly UnsafeFinding[]): string[] {
  return findings.flatMap((f) => [
    `  - ${f.what} (${f.check})`,
    `      risk: ${UNSAFE_CHECKS[f.check].risk}`,
    `      safe way: ${UNSAFE_CHECKS[f.check].safeWay}`,
  ])
}

const uniqueChecks = (findings: readonly UnsafeFinding[]) => [...new Set(findings.map((f) => f.check))]

/** Thrown when a migration would do something unsafe that was not acknowledged; nothing is written or applied. */
export class UnsafeMigrationError extends Error {
  constructor(
    readonly findings: readonly UnsafeFinding[],
    message: string,
  ) {
    super(message)
    this.name = 'UnsafeMigrationError'
  }

  /** The generator's refusal: every finding, then the flag that acknowledges them. */
  static atGeneration(findings: readonly UnsafeFinding[]): UnsafeMigrationError {
    const checks = uniqueChecks(findings)
    return new UnsafeMigrationError(
      findings,
      [
        'Migration not generated: it does what is unsafe on a production database:',
        ...findingLines(findings),
        `To write it as it is, acknowledge ${checks.length === 1 ? 'the check' : 'each check'}: ` +
          `vela migrations generate ${checks.map((c) => `--allow-unsafe ${c}`).join(' ')} ` +
          `(decisions { allowUnsafe: [${checks.map((c) => `'${c}'`).join(', ')}] }); ` +
          'the file then exports safetyAssured with those names, so `vela migrate` applies it.',
      ].join('\n'),
    )
  }

  /** The migrator's refusal of one migration. */
  static atMigrate(
    migration: string,
    findings: readonly UnsafeFinding[],
    largeTableRows: number,
  ): UnsafeMigrationError {
    const checks = uniqueChecks(findings)
    const list = checks.map((c) => `'${c}'`).join(', ')
    return new UnsafeMigrationError(
      findings,
      [
        `migration ${migration} not applied: it does what is unsafe on tables that have rows` +
          (checks.includes('create-index') ? ` (an index: on tables of ${largeTableRows} rows or more)` : '') +
          ':',
        ...findingLines(findings),
        `To apply it as it is, acknowledge it in the migration file: export const safetyAssured = [${list}] ` +
          `(or defineMigration({ up, down, safetyAssured: [${list}] })), ` +
          `or run vela migrate ${checks.map((c) => `--allow-unsafe ${c}`).join(' ')}.`,
      ].join('\n'),
    )
  }
}
