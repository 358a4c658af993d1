/**
 * The development dashboard's hook into queries: while `vela serve` records requests it leaves a
 * recorder on `globalThis` (under a registered symbol, so the dev server and the app's copy of
 * this module meet), and each query made during a recorded request becomes a span of it, with
 * its SQL, parameters and rows. Without a recorder a query pays one property read.
 */
import type { QueryResult } from '../adapters/adapter.ts'

interface QueryRecorder {
  start(
    sql: string,
    params: readonly unknown[],
    label: string | undefined,
  ): ((rows: number, error?: unknown) => void) | undefined
}

const kQueries = Symbol.for('vela.dashboard.queries')

/** What a query is called on its span and on the dashboard: `SELECT products`, or `db.query` for raw SQL. */
export function queryName(op: string | undefined, source: string | undefined): string {
  return op !== undefined && source !== undefined ? `${op} ${source}` : 'db.query'
}

/** Runs `query`, recorded when a dashboard is recording the current request. */
export function recordedQuery(
  sql: string,
  params: readonly unknown[],
  op: string | undefined,
  source: string | undefined,
  query: () => Promise<QueryResult>,
): Promise<QueryResult> {
  const recorder = (globalThis as { [kQueries]?: QueryRecorder })[kQueries]
  if (recorder === undefined) return query()
  const done = recorder.start(sql, params, queryName(op, source))
  if (!done) return query()
  return query().then(
    (res) => {
      done(res.rowCount)
      return res
    },
    (error: unknown) => {
      done(0, error)
      throw error
    },
  )
}
