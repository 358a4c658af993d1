/**
 * Schemas with a composite primary key for the composite-key cases (cases/composite-keys.ts):
 * orders → order lines keyed by (order_id, line_no) → notes on a line through a two-column foreign
 * key. The DDL is what the migration generator writes for them, so the cases also prove it works.
 */
import { operationsSql } from '../migrations/ddl.ts'
import { planMigration } from '../migrations/diff.ts'
import { modelFromSchemas } from '../migrations/model.ts'
import { type AnySchema, belongsTo, defineSchema, hasMany } from '../schema.ts'
import { HkAccount } from './schemas-hooks.ts'

export const CkOrder = defineSchema({
  table: 'ck_orders',
  fields: { id: 'id', title: { type: 'string', nullable: false } },
  associations: { lines: hasMany((): AnySchema => CkLine, { foreignKey: 'order_id' }) },
})

const lineFields = {
  order_id: 'integer',
  line_no: 'integer',
  product: { type: 'string', nullable: false },
  quantity: { type: 'integer', nullable: false, default: 1 },
  lock_version: { type: 'integer', nullable: false, default: 1 },
  deleted_at: 'utc_datetime',
} as const

export const CkLine = defineSchema({
  table: 'ck_order_lines',
  primaryKey: ['order_id', 'line_no'],
  fields: lineFields,
  associations: {
    order: belongsTo(() => CkOrder, { onDelete: 'cascade' }),
    notes: hasMany((): AnySchema => CkLineNote, { foreignKey: ['order_id', 'line_no'] }),
  },
  audit: true,
})

export const CkLineNote = defineSchema({
  table: 'ck_line_notes',
  fields: { id: 'id', order_id: 'integer', line_no: 'integer', body: { type: 'string', nullable: false } },
  associations: { line: belongsTo(() => CkLine, { foreignKey: ['order_id', 'line_no'], onDelete: 'cascade' }) },
})

/** The same table with soft delete: its default scope leaves deleted lines out of get, update and delete. */
export const CkLineSoft = defineSchema({
  table: 'ck_order_lines',
  primaryKey: ['order_id', 'line_no'],
  fields: lineFields,
  softDelete: true,
})

// HkAccount is audited: planning from its model leaves the audit table (made by schemas-hooks.ts) out.
const before = modelFromSchemas([HkAccount])
export const compositeDdl = operationsSql(
  planMigration(before, modelFromSchemas([HkAccount, CkOrder, CkLine, CkLineNote])).up,
)
export const compositeTables = ['ck_orders', 'ck_order_lines', 'ck_line_notes']
