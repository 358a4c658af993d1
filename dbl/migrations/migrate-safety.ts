/**
 * The migrator's side of the safety checks (safety.ts): before a pending migration runs, its
 * unacknowledged unsafe operations are weighed against the data they would touch. Most matter only
 * when their table has rows (a fresh database — dev, tests, CI — applies every migration freely);
 * an index built without CONCURRENTLY matters only on a large table.
 */
import type { Connection } from '../adapters/adapter.ts'
import { ident } from './columns.ts'
import type { Migration } from './load.ts'
import { applyOperation } from './model.ts'
import type { Operation } from './operations.ts'
import {
  checkNames,
  UnsafeMigrationError,
  unsafeOperations,
  unsafeWhen,
  type UnsafeCheck,
  type UnsafeFinding,
} from './safety.ts'
import type { Model } from './table-model.ts'

/** Estimated rows from which a table is large: CREATE INDEX without CONCURRENTLY is refused on it. */
export const LARGE_TABLE_ROWS = 100_000

/** What the safety checks of `migrate` are told. */
export interface SafetyOptions {
  /** Checks acknowledged for every migration of this run (CLI `vela migrate --allow-unsafe <check>`). */
  readonly allowUnsafe?: readonly UnsafeCheck[]
  /** Estimated rows from which a table counts as large for `create-index` (default 100,000). */
  readonly largeTableRows?: number
}

async function rowsOf(conn: Connection, table: string, atLeast: number): Promise<number> {
  const name = ident(table)
  const found = await conn.query<{ reltuples: number | null }>(
    'SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = to_regclass($1)',
    [name],
  )
  if (found.rows.length === 0) return 0 // made by an `execute` of this migration, or not at all
  // reltuples is PostgreSQL's estimate (-1 until the table is first analyzed, stale after a bulk
  // load or a DELETE): it answers "large" on its own, while "small" and "has rows" are decided by
  // a count that stops at the threshold (one row for "has rows").
  const estimate = Number(found.rows[0]!.reltuples ?? -1)
  if (atLeast > 1 && estimate >= atLeast) return estimate
  const counted = await conn.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${name} LIMIT ${atLeast}) s`,
  )
  return counted.rows[0]!.n
}

/**
 * Refuses (`UnsafeMigrationError`) a migration whose unacknowledged unsafe operations touch data:
 * a table with rows, or a large one for an index. `before` is the model of the migrations before it.
 */
/** Refuses an option naming no check, before anything runs. */
export function checkSafetyOptions(opts: SafetyOptions): void {
  checkNames(opts.allowUnsafe ?? [], 'migrate: allowUnsafe')
  const large = opts.largeTableRows
  if (large !== undefined && !(Number.isInteger(large) && large > 0))
    throw new Error(`migrate: largeTableRows must be a positive whole number, got ${large}`)
}

export async function checkSafety(
  conn: Connection,
  migration: Migration,
  ops: readonly Operation[],
  before: Model,
  opts: SafetyOptions,
): Promise<void> {
  const acknowledged = new Set([...(migration.safetyAssured ?? []), ...(opts.allowUnsafe ?? [])])
  const large = opts.largeTableRows ?? LARGE_TABLE_ROWS
  const refused: UnsafeFinding[] = []
  const rows = new Map<string, number>()
  for (const f of unsafeOperations(ops, before)) {
    if (acknowledged.has(f.check)) continue
    const threshold = unsafeWhen(f.check) === 'large' ? large : 1
    const key = `${f.table}\0${threshold}`
    if (!rows.has(key)) rows.set(key, await rowsOf(conn, f.table, threshold))
    if (rows.get(key)! >= threshold) refused.push(f)
  }
  if (refused.length > 0)
    throw UnsafeMigrationError.atMigrate(migration.file ?? `m${migration.version}_${migration.name}`, refused, large)
}

/**
 * Moves the model past one migration. A migration the model cannot follow (SQL of its own) leaves
 * the model as far as it got: the checks then know less about column types, never more.
 */
export function replayInto(model: Model, ops: readonly Operation[]): void {
  try {
    for (const op of ops) applyOperation(model, op, 'safety checks')
  } catch {
    // See above: a partial model only makes type changes look riskier.
  }
}
