/**
 * The repository case suite, run once per backend (pglite.test.ts, postgres.test.ts): the same
 * cases against embedded PGlite and a PostgreSQL server. `open` gives a fresh, empty database.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Adapter } from '../adapters/adapter.ts'
import { defineRepo } from '../repo.ts'
import { assocCases } from './cases/assoc.ts'
import { badInputCases } from './cases/bad-input.ts'
import { constraintCases } from './cases/constraints.ts'
import { checkCases } from './cases/checks.ts'
import { foreignKeyCases } from './cases/foreign-keys.ts'
import { likeCases } from './cases/like.ts'
import { manyToManyCases } from './cases/many-to-many.ts'
import { onConflictCases } from './cases/on-conflict.ts'
import { preloadCases } from './cases/preload.ts'
import { queryCases } from './cases/queries.ts'
import { sqlBreadthCases } from './cases/sql-breadth.ts'
import { readWriteCases } from './cases/read-write.ts'
import { streamingCases } from './cases/streaming.ts'
import { telemetryCases } from './cases/telemetry.ts'
import { transactionCases } from './cases/transactions.ts'
import { changesetMoreCases } from './cases/changesets-more.ts'
import { ddl, tables } from './schemas.ts'
import { changesetsDdl, changesetsTables } from './schemas-changesets.ts'
import { defectDdl, defectTables } from './schemas-defects.ts'
import { defectCases } from './cases/defects.ts'
import { defectMoreCases } from './cases/defects-more.ts'
import { queriesDdl, queriesTables } from './schemas-queries.ts'
import { scopesDdl, scopesTables } from './schemas-scopes.ts'
import { scopeCases } from './cases/scopes.ts'
import { replicaCases } from './cases/replicas.ts'
import { factoryCases } from './cases/factories.ts'
import { hooksDdl, hooksTables } from './schemas-hooks.ts'
import { prepareChangesCases } from './cases/prepare-changes.ts'
import { hookCases } from './cases/hooks.ts'
import { auditCases } from './cases/audit.ts'
import { compositeKeyCases } from './cases/composite-keys.ts'
import { compositeDdl, compositeTables } from './schemas-composite.ts'
import type { SuiteContext } from './suite-context.ts'
import { columnsDdl, columnsTables } from './schemas-columns.ts'
import { columnCases } from './cases/columns.ts'
import { columnQueryCases } from './cases/columns-queries.ts'

export function repoCases(open: () => Promise<{ adapter: Adapter; url?: string; close(): Promise<void> }>): void {
  const t = {} as SuiteContext
  let close: () => Promise<void> = async () => {}
  beforeAll(async () => {
    const opened = await open()
    close = opened.close
    t.adapter = opened.adapter
    t.url = opened.url
    for (const statement of [
      ...ddl,
      ...changesetsDdl,
      ...defectDdl,
      ...queriesDdl,
      ...scopesDdl,
      ...hooksDdl,
      ...columnsDdl,
      ...compositeDdl,
    ])
      await t.adapter.query(statement)
    t.repo = defineRepo({ adapter: t.adapter, name: 'TestRepo' })
    t.count = async (table) => Number((await t.adapter.query(`select count(*)::int as n from ${table}`)).rows[0]!.n)
  })
  beforeEach(async () => {
    await t.adapter.query(
      `truncate ${[...tables, ...changesetsTables, ...defectTables, ...queriesTables, ...scopesTables, ...hooksTables, ...columnsTables, ...compositeTables].join(', ')} restart identity cascade`,
    )
  })
  afterAll(() => close())

  readWriteCases(t)
  onConflictCases(t)
  constraintCases(t)
  checkCases(t)
  foreignKeyCases(t)
  transactionCases(t)
  assocCases(t)
  preloadCases(t)
  badInputCases(t)
  likeCases(t)
  telemetryCases(t)
  manyToManyCases(t)
  changesetMoreCases(t)
  defectCases(t)
  defectMoreCases(t)
  queryCases(t)
  sqlBreadthCases(t)
  streamingCases(t)
  scopeCases(t)
  replicaCases(t)
  factoryCases(t)
  prepareChangesCases(t)
  hookCases(t)
  auditCases(t)
  columnCases(t)
  columnQueryCases(t)
  compositeKeyCases(t)
}
