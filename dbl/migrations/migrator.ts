/**
 * Applies and reverts migrations. Every run holds a session-level advisory lock for its whole
 * duration and re-reads `schema_migrations` only after getting it, so instances starting together
 * queue up and each migration runs exactly once. Each migration is one transaction (its DDL plus its
 * version row), opened with BEGIN/COMMIT on the *same* connection that holds the lock: a transaction
 * on another pooled connection would not be covered by the lock (and could wait on the locker).
 */
import type { Adapter, Connection } from '../adapters/adapter.ts'
import { operationsSql } from './ddl.ts'
import type { Migration } from './load.ts'
import type { Operation } from './operations.ts'
import { checkSafety, checkSafetyOptions, replayInto, type SafetyOptions } from './migrate-safety.ts'
import type { Model } from './table-model.ts'

/** pg_advisory_lock(int4, int4): "vela" in ASCII, then 1 for migrations. Scoped to one database. */
const LOCK = 'pg_advisory_lock(1986358369, 1)'
const UNLOCK = 'pg_advisory_unlock(1986358369, 1)'

/** Options of `migrate` and `rollbackMigrations`; the safety options apply to `migrate` only. */
export interface MigratorOptions extends SafetyOptions {
  /** One line per migration applied or reverted. */
  log?: (line: string) => void
}

/** A migration `migrate` applied or `rollbackMigrations` reverted: its version and name. */
export interface AppliedMigration {
  readonly version: number
  readonly name: string
}

/** One migration as `migrationStatus` reports it: applied or pending, and when it was applied. */
export interface MigrationStatus {
  readonly version: number
  readonly name: string
  readonly applied: boolean
  readonly appliedAt: Date | null
  /** `null` for an applied version whose file is gone. */
  readonly file: string | null
}

const label = (m: { version: number; name: string }) => `m${m.version}_${m.name}`

async function withLock<T>(adapter: Adapter, fn: (conn: Connection) => Promise<T>): Promise<T> {
  return adapter.session(async (conn) => {
    await conn.query(`SELECT ${LOCK}`)
    try {
      await conn.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())',
      )
      return await fn(conn)
    } finally {
      await conn.query(`SELECT ${UNLOCK}`)
    }
  })
}

async function appliedRows(conn: Connection) {
  const res = await conn.query<{ version: number; name: string; inserted_at: Date }>(
    'SELECT version, name, inserted_at FROM schema_migrations ORDER BY version',
  )
  return res.rows
}

/**
 * Runs one migration's statements and its bookkeeping statement in one transaction on `conn`, or,
 * for a migration exporting `transaction = false`, one by one (what succeeded before a failure
 * stays applied, and the version is recorded only when all did).
 */
async function runMigration(
  conn: Connection,
  migration: Migration,
  statements: string[],
  bookkeeping: [string, unknown[]],
) {
  const inTransaction = migration.transaction !== false
  if (inTransaction) await conn.query('BEGIN')
  let current = ''
  try {
    for (const sql of statements) {
      current = sql
      await conn.query(sql)
    }
    await conn.query(...bookkeeping)
    if (inTransaction) await conn.query('COMMIT')
  } catch (err) {
    if (inTransaction) await conn.query('ROLLBACK').catch(() => {})
    const where = migration.file ?? label(migration)
    const outcome = inTransaction
      ? 'failed and was rolled back'
      : 'failed outside a transaction (transaction = false): the statements before this one stay applied, the migration is still pending'
    throw new Error(`migration ${where} ${outcome}: ${(err as Error).message}\n  while running: ${current}`, {
      cause: err,
    })
  }
}

function sortedUnique(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version)
      throw new Error(`two migrations share version ${sorted[i]!.version}`)
  }
  return sorted
}

/** An adapter, or a repository (`defineRepo`): the migrator runs on the repo's adapter. */
export type MigrationTarget = Adapter | { adapter(): Promise<Adapter> }

const adapterOf = (t: MigrationTarget): Promise<Adapter> => ('kind' in t ? Promise.resolve(t) : t.adapter())

/**
 * Applies every pending migration in version order; stops at the first failure (which is rolled
 * back; the ones before it stay applied). Returns what this call applied. Instances starting
 * together take turns (an advisory lock), so each migration runs once. A migration doing what is
 * unsafe on the data it touches (dropping a column of a table with rows, …) is refused with an
 * `UnsafeMigrationError` unless it lists the check in `safetyAssured` or `opts.allowUnsafe` does.
 *
 * @example
 * // In the app's start hook: the migrations `vela/vite` compiles in, applied before serving.
 * import { migrate } from 'vela/dbl'
 * import { migrations } from 'virtual:vela/migrations'
 *
 * await migrate(repo, migrations, { log: (line) => console.log(line) })
 */
export async function migrate(
  target: MigrationTarget,
  migrations: readonly Migration[],
  opts: MigratorOptions = {},
): Promise<AppliedMigration[]> {
  const ordered = sortedUnique(migrations)
  checkSafetyOptions(opts)
  const adapter = await adapterOf(target)
  return withLock(adapter, async (conn) => {
    const applied = new Set((await appliedRows(conn)).map((r) => r.version))
    const done: AppliedMigration[] = []
    // The model before each migration, for the safety checks (a type change's old type).
    const model: Model = new Map()
    for (const m of ordered) {
      const ops = m.up()
      if (!applied.has(m.version)) {
        const statements = await compile(m, 'up')
        await checkSafety(conn, m, ops, model, opts)
        await runMigration(conn, m, statements, [
          'INSERT INTO schema_migrations (version, name, inserted_at) VALUES ($1, $2, now())',
          [m.version, m.name],
        ])
        opts.log?.(`migrated ${label(m)}`)
        done.push({ version: m.version, name: m.name })
      }
      replayInto(model, ops)
    }
    return done
  })
}

/**
 * Reverts the last `steps` applied migrations (default 1), newest first, by running their `down()`.
 * Exported from `vela/dbl` as `rollbackMigrations`.
 *
 * @example
 * const reverted = await rollbackMigrations(repo, await loadMigrations('src/migrations'), { steps: 2 })
 * // [{ version: 20261127000903, name: 'alter_notes' }, { version: 20261126230457, name: 'alter_users' }]
 */
export async function rollback(
  target: MigrationTarget,
  migrations: readonly Migration[],
  opts: MigratorOptions & { steps?: number } = {},
): Promise<AppliedMigration[]> {
  const steps = opts.steps ?? 1
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`rollback: steps must be a positive integer, got ${steps}`)
  const byVersion = new Map(sortedUnique(migrations).map((m) => [m.version, m]))
  const adapter = await adapterOf(target)
  return withLock(adapter, async (conn) => {
    const applied = (await appliedRows(conn)).reverse().slice(0, steps)
    const done: AppliedMigration[] = []
    for (const row of applied) {
      const m = byVersion.get(row.version)
      if (!m) throw new Error(`cannot roll back ${label(row)}: it is applied but its migration file is missing`)
      await runMigration(conn, m, await compile(m, 'down'), [
        'DELETE FROM schema_migrations WHERE version = $1',
        [m.version],
      ])
      opts.log?.(`rolled back ${label(m)}`)
      done.push({ version: m.version, name: m.name })
    }
    return done
  })
}

/**
 * Every known migration with its state, plus applied versions whose file is gone. Changes nothing.
 * Exported from `vela/dbl` as `migrationStatus`.
 *
 * @example
 * for (const m of await migrationStatus(repo, migrations)) console.log(m.applied ? 'up  ' : 'down', m.version, m.name)
 */
export async function status(target: MigrationTarget, migrations: readonly Migration[]): Promise<MigrationStatus[]> {
  const adapter = await adapterOf(target)
  const exists = await adapter.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t")
  const rows = exists.rows[0]?.t ? await appliedRows(adapter) : []
  const appliedAt = new Map(rows.map((r) => [r.version, r]))
  const list: MigrationStatus[] = sortedUnique(migrations).map((m) => ({
    version: m.version,
    name: m.name,
    applied: appliedAt.has(m.version),
    appliedAt: appliedAt.get(m.version)?.inserted_at ?? null,
    file: m.file ?? null,
  }))
  const known = new Set(list.map((s) => s.version))
  for (const r of rows) {
    if (!known.has(r.version))
      list.push({ version: r.version, name: r.name, applied: true, appliedAt: r.inserted_at, file: null })
  }
  return list.sort((a, b) => a.version - b.version)
}

/** An `execute` with deferred SQL, loaded (a migration file's `up()` stays synchronous). */
async function loaded(op: Operation): Promise<Operation> {
  return op.op === 'execute' && typeof op.sql !== 'string' ? { op: 'execute', sql: await op.sql.load() } : op
}

async function compile(m: Migration, direction: 'up' | 'down'): Promise<string[]> {
  try {
    const ops = m[direction]()
    const concurrent = ops.find(
      (op): op is Extract<Operation, { op: 'createIndex' | 'dropIndex' }> =>
        (op.op === 'createIndex' || op.op === 'dropIndex') && op.concurrently === true,
    )
    if (concurrent && m.transaction !== false)
      throw new Error(
        `${concurrent.op} ${concurrent.name} is CONCURRENTLY, which PostgreSQL cannot run inside a transaction: ` +
          'export const transaction = false from the migration (or defineMigration({ …, transaction: false }))',
      )
    return operationsSql(await Promise.all(ops.map(loaded)))
  } catch (err) {
    throw new Error(`migration ${m.file ?? label(m)} (${direction}): ${(err as Error).message}`, { cause: err })
  }
}
