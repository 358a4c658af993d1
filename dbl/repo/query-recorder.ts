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

/** Runs `query`, recorded when a dashboard is recording the current request. */
export function recordedQuery(
  sql: string,
  params: readonly unknown[],
  label: string | undefined,
  query: () => Promise<QueryResult>,
): Promise<QueryResult> {
  const recorder = (globalThis as { [kQueries]?: QueryRecorder })[kQueries]
  const done = recorder?.start(sql, params, label)
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
