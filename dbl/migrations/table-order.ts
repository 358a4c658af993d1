/**
 * The order in which the diff creates (and, reversed, drops) a set of tables: each table after the
 * tables its foreign keys point at, because PostgreSQL refuses a reference to a table that does not
 * exist yet. Tables that point at each other (A → B → A) cannot all be ordered: the first table of
 * such a cycle is created without the foreign keys that point forward, and those are added once
 * every table exists ("deferred"). When dropping, the deferred keys are dropped first instead.
 */
import type { ResolvedColumn } from './columns.ts'
import type { ColumnRef } from './foreign-keys.ts'
import type { TableModel } from './table-model.ts'

export interface TableOrder {
  readonly order: readonly TableModel[]
  /** Foreign keys left out of `createTable`, to be added after all the tables exist. */
  readonly deferred: readonly ColumnRef[]
}

/**
 * Deterministic: among the tables ready at each step, the first in the given order goes first.
 * `later` names foreign keys to defer whatever the order (ones pointing at a column of a table
 * outside the set that only exists, or is only unique, at the other end of the migration).
 */
export function creationOrder(
  tables: readonly TableModel[],
  later: (t: TableModel, c: ResolvedColumn) => boolean = () => false,
): TableOrder {
  const inSet = new Set(tables.map((t) => t.name))
  const done = new Set<string>()
  const deferred: ColumnRef[] = tables.flatMap((t) =>
    t.columns.filter((c) => c.references && later(t, c)).map((c) => ({ table: t.name, column: c.name })),
  )
  const waitsOn = (t: TableModel) =>
    t.columns.filter(
      (c) =>
        c.references &&
        c.references.table !== t.name &&
        inSet.has(c.references.table) &&
        !done.has(c.references.table) &&
        !isDeferred(deferred, t.name, c.name),
    )
  const pending = [...tables]
  const order: TableModel[] = []
  while (pending.length > 0) {
    let i = pending.findIndex((t) => waitsOn(t).length === 0)
    if (i < 0) {
      // Every pending table waits on another: a cycle. Break it at the first one.
      i = 0
      for (const c of waitsOn(pending[0]!)) deferred.push({ table: pending[0]!.name, column: c.name })
    }
    const [next] = pending.splice(i, 1)
    order.push(next!)
    done.add(next!.name)
  }
  return { order, deferred }
}

export const isDeferred = (deferred: readonly ColumnRef[], table: string, column: string): boolean =>
  deferred.some((d) => d.table === table && d.column === column)
