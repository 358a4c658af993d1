/**
 * The generator's closed loop, shared by the round-trip suites: for each case, generate a
 * migration per step, apply it to a real database (PGlite and the PostgreSQL server), check the
 * catalog against the replayed model, and generate again expecting nothing. Finally roll the
 * migrations back one by one, checking the catalog after each, which proves every generated `down()`.
 */
import { readdir } from 'node:fs/promises'
import { expect, test } from 'vitest'
import type { Connection } from '../../adapters/adapter.ts'
import type { AnySchema } from '../../schema.ts'
import type { Decisions } from '../diff.ts'
import { generateMigration } from '../generate.ts'
import { loadMigrations } from '../load.ts'
import { migrate, rollback } from '../migrator.ts'
import { modelFromMigrations } from '../model.ts'
import type { Operation } from '../operations.ts'
import { expectCatalogMatches } from './catalog.ts'
import { OPERATIONS_MODULE, onEachBackend, tempDir } from './support.ts'

export interface Step {
  readonly schemas: readonly AnySchema[]
  readonly decisions?: Decisions
  /** File name suffix expected, or null for "nothing written". */
  readonly name: string | null
  /** Compact form of the generated up() operations. */
  readonly ops?: readonly string[]
  readonly warnings?: readonly RegExp[]
  /** The generator must stop with this message and write nothing. */
  readonly error?: RegExp
  /** SQL run after this step is applied (e.g. rows that must survive the next step). */
  readonly seed?: readonly string[]
  /** Checks on the data after this step is applied. */
  readonly verify?: (conn: Connection) => Promise<void>
}
export interface Case {
  readonly name: string
  readonly steps: readonly Step[]
}

/** `createTable products`, `addColumn products.sku`, `addCheck products.price_positive`, `modifyColumn products.price{type,default}`… */
export function summary(ops: readonly Operation[]): string[] {
  return ops.flatMap((op) => {
    if (op.op !== 'alterTable') return [`${op.op} ${'table' in op ? op.table : ''}${'name' in op ? `.${op.name}` : ''}`]
    return op.changes.map((c) => {
      if (c.change === 'addColumn') return `addColumn ${op.table}.${c.column.name}`
      if (c.change === 'renameColumn') return `renameColumn ${op.table}.${c.from}->${c.to}`
      if (c.change === 'dropColumn') return `dropColumn ${op.table}.${c.name}`
      if (c.change === 'addForeignKey') return `addForeignKey ${op.table}(${c.foreignKey.columns.join(',')})`
      if (c.change === 'setPrimaryKey') return `setPrimaryKey ${op.table}(${c.columns.join(',')})`
      if (c.change === 'dropForeignKey') return `dropForeignKey ${op.table}(${c.columns.join(',')})`
      return `modifyColumn ${op.table}.${c.name}{${Object.keys(c.set).join(',')}}`
    })
  })
}

export const rows = async (conn: Connection, sql: string) => (await conn.query(sql)).rows

/** Registers one test per case and backend; awaited at the top of a test file (it asks which backends are up). */
export async function roundTrips(title: string, cases: readonly Case[]): Promise<void> {
  await onEachBackend(title, (db) => {
    for (const c of cases) {
      test(c.name, async () => {
        const tmp = await tempDir()
        try {
          const now = new Date('2024-05-01T10:00:00Z')
          for (const [i, step] of c.steps.entries()) {
            const at = `step ${i + 1}`
            const gen = () =>
              generateMigration({
                schemas: step.schemas,
                migrationsDir: tmp.dir,
                now,
                decisions: step.decisions,
                importFrom: OPERATIONS_MODULE,
              })
            if (step.error) {
              const before = await readdir(tmp.dir)
              await expect(gen(), at).rejects.toThrow(step.error)
              expect(await readdir(tmp.dir), `${at}: nothing written`).toEqual(before)
              continue
            }
            const result = await gen()
            expect(result.name, at).toBe(step.name)
            if (step.name) expect(result.written, at).toMatch(new RegExp(`/m\\d{14}_${step.name}\\.ts$`))
            else expect(result.written, at).toBe(null)
            if (step.ops) expect(summary(result.operations), at).toEqual(step.ops)
            for (const w of step.warnings ?? [])
              expect(
                result.warnings.some((x) => w.test(x)),
                `${at}: warning ${w} in ${JSON.stringify(result.warnings)}`,
              ).toBe(true)
            if (!step.warnings)
              expect(
                result.warnings.filter((w) => !w.includes('is kept')),
                at,
              ).toEqual([])

            const migrations = await loadMigrations(tmp.dir)
            await migrate(db.adapter, migrations)
            for (const sql of step.seed ?? []) await db.adapter.query(sql)
            await step.verify?.(db.adapter)
            await expectCatalogMatches(db.adapter, modelFromMigrations(migrations))
            const again = await generateMigration({
              schemas: step.schemas,
              migrationsDir: tmp.dir,
              now,
              decisions: step.decisions,
              importFrom: OPERATIONS_MODULE,
            })
            expect(again.written, `${at}: nothing left to diff`).toBe(null)
          }
          // Each down(), newest first, brings the catalog back to the model before its migration,
          // down to the empty database.
          const migrations = await loadMigrations(tmp.dir)
          for (let n = migrations.length - 1; n >= 0; n--) {
            await rollback(db.adapter, migrations)
            await expectCatalogMatches(db.adapter, modelFromMigrations(migrations.slice(0, n)))
          }
        } finally {
          await tmp.remove()
        }
      })
    }
  })
}
