/**
 * The generator's side of the safety checks (safety.ts): a plan whose unsafe operations are not all
 * acknowledged is refused before anything is written, and an acknowledged one is written with its
 * `safetyAssured` list, so that `migrate` reads the same decision from the file. Indexes are the
 * exception: whether one is unsafe depends on the table's size, which only the database knows, so
 * the generator instead builds them CONCURRENTLY whenever the migration can run outside a
 * transaction (it holds nothing but index changes to existing tables).
 *
 * A field removed from a schema is the one unsafe change that is held back rather than refused:
 * its removal is the first step of the safe way (code stops reading the column), so the generator
 * keeps the column, writes whatever else changed, and says how to drop it once that code is out —
 * as Rails' `ignored_columns` and Vela's own handling of a table no schema uses do.
 */
import type { MigrationPlan } from './diff.ts'
import type { Model } from './table-model.ts'
import type { Operation } from './operations.ts'
import type { MigrationExports } from './render.ts'
import { UnsafeMigrationError, unsafeOperations, type UnsafeCheck } from './safety.ts'

/** What the generator writes: the operations and the file's extra exports. */
export interface SafePlan {
  readonly up: Operation[]
  readonly down: Operation[]
  readonly exports: MigrationExports
  readonly warnings: string[]
}

const indexOnly = (ops: readonly Operation[], before: Model) =>
  ops.every((op) => (op.op === 'createIndex' || op.op === 'dropIndex') && before.has(op.table))

const concurrent = (op: Operation): Operation =>
  op.op === 'createIndex' || op.op === 'dropIndex' ? { ...op, concurrently: true } : op

/** The `table.column` of each column `up` drops. */
export function droppedColumns(up: readonly Operation[]): { table: string; column: string }[] {
  return up.flatMap((op) =>
    op.op === 'alterTable'
      ? op.changes.flatMap((c) => (c.change === 'dropColumn' ? [{ table: op.table, column: c.name }] : []))
      : [],
  )
}

/** `target` with the held-back columns (and their indexes) put back as `before` has them. */
export function keepColumns(target: Model, before: Model, held: readonly { table: string; column: string }[]): Model {
  const out: Model = new Map(
    [...target].map(([n, t]) => [n, { ...t, columns: [...t.columns], indexes: [...t.indexes], checks: [...t.checks] }]),
  )
  for (const { table, column } of held) {
    const from = before.get(table)!
    const t = out.get(table)!
    t.columns.push(from.columns.find((c) => c.name === column)!)
    for (const ix of from.indexes)
      if (ix.columns.includes(column) && !t.indexes.some((i) => i.name === ix.name)) t.indexes.push(ix)
  }
  return out
}

/** The warning for a column kept because dropping it was not acknowledged. */
export const heldBackWarning = ({ table, column }: { table: string; column: string }) =>
  `${table}.${column} is no longer a field of the ${table} schema; its column is kept. Deploy this code first ` +
  '(nothing reads the column any more), then drop it: vela migrations generate --allow-unsafe drop-column ' +
  `(a NOT NULL column without a default must first become nullable, or the new code's inserts fail)`

/** Throws `UnsafeMigrationError` for unacknowledged unsafe operations; else the plan as it is written. */
export function safePlan(plan: MigrationPlan, before: Model, allowUnsafe: readonly UnsafeCheck[] = []): SafePlan {
  if (indexOnly(plan.up, before)) {
    return {
      up: plan.up.map(concurrent),
      down: plan.down.map(concurrent),
      exports: { transaction: false },
      warnings: [],
    }
  }
  const findings = unsafeOperations(plan.up, before)
  const refused = findings.filter((f) => f.check !== 'create-index' && !allowUnsafe.includes(f.check))
  if (refused.length > 0) throw UnsafeMigrationError.atGeneration(refused)
  const warnings = findings
    .filter((f) => f.check === 'create-index')
    .map(
      (f) =>
        `${f.what} on the existing table ${f.table}, inside the migration's transaction: it blocks writes to ${f.table} while it builds, ` +
        'and `vela migrate` refuses it on a large table. To build it CONCURRENTLY, generate the index in a migration of its own.',
    )
  const assured = [...new Set(findings.map((f) => f.check).filter((c) => allowUnsafe.includes(c)))]
  return {
    up: plan.up,
    down: plan.down,
    exports: assured.length ? { safetyAssured: assured } : {},
    warnings,
  }
}
