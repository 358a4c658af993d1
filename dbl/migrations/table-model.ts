/**
 * The shape of the database as the migrations describe it (model.ts builds it, foreign-keys.ts
 * and table-order.ts read it). A leaf: types only, so the modules reading a model need not import
 * the module building it.
 */
import type { ResolvedColumn, ResolvedForeignKey } from './columns.ts'
import type { CheckDefinition, IndexDefinition } from './operations.ts'

export interface TableModel {
  readonly name: string
  columns: ResolvedColumn[]
  indexes: IndexDefinition[]
  checks: CheckDefinition[]
  /** Foreign keys over several columns (a one-column key is its column's `references`); absent = none. */
  foreignKeys?: ResolvedForeignKey[]
}

/** Table name → table, in creation order. */
export type Model = Map<string, TableModel>
