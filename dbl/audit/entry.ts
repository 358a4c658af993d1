/**
 * The audit table: one row per insert, update or delete of a changeset of an audited schema
 * (`audit: true` in `defineSchema`). A schema like any other, so reads use the query builder and
 * the migration generator creates its table once a schema is audited (`withAuditTable`).
 */
import { from } from '../query/builder.ts'
import type { Query } from '../query/types.ts'
import { compositeKeyValues } from '../primary-key.ts'
import { defineSchema, type AnySchema, type RecordOf } from '../schema.ts'

/** The table audit rows go to. */
export const AUDIT_TABLE = 'vela_audit'

/**
 * An audit row: the table and primary key (as text; a composite key as the JSON object of its
 * fields in key order, `{"order_id":1,"line_no":2}`) of the record written, the action, the actor
 * (`withActor` / `setActor`; `null` when none was named), the changed fields as
 * `{ field: [old, new] }` (`null` for the missing side of an insert or a delete), and when.
 */
export const AuditEntry = defineSchema({
  table: AUDIT_TABLE,
  fields: {
    id: 'id',
    table_name: { type: 'string', nullable: false },
    record_id: { type: 'string', nullable: false },
    action: { type: { enum: ['insert', 'update', 'delete'] }, nullable: false },
    actor: 'jsonb',
    changes: { type: 'jsonb', nullable: false },
    recorded_at: { type: 'utc_datetime', nullable: false },
  },
  indexes: [{ columns: ['table_name', 'record_id'] }],
})

/** An audit row as read back. */
export type AuditRecord = RecordOf<typeof AuditEntry>

/**
 * The audit rows of one record of `schema`, oldest first: read them with `repo.all`. A composite
 * key is given as `repo.get` takes it, an object naming every key field.
 *
 * @example
 * const history = await repo.all(historyOf(Post, post.id))
 * // [{ action: 'insert', actor: 7, changes: { title: [null, 'Hello'] }, … }, { action: 'update', … }]
 * const lineHistory = await repo.all(historyOf(OrderLine, { order_id: 1, line_no: 2 }))
 */
export function historyOf(schema: AnySchema, id: unknown): Query<typeof AuditEntry, AuditRecord> {
  let recordId = String(id)
  if (schema.primaryKeys.length > 1) {
    // Cast as `get` casts, so `{ order_id: '1' }` from a URL finds the rows `{ order_id: 1 }` wrote.
    const values = compositeKeyValues(schema, id, 'historyOf')
    recordId = values ? auditRecordId(schema.primaryKeys, values) : ''
  }
  return from(AuditEntry).where({ table_name: schema.table, record_id: recordId }).orderBy('id')
}

/** A composite key as audit rows hold it: the JSON object of its fields, in key order. */
export function auditRecordId(keys: readonly string[], values: readonly unknown[]): string {
  const key: Record<string, unknown> = {}
  keys.forEach((k, i) => (key[k] = values[i]))
  return JSON.stringify(key)
}

/**
 * The schemas the migration generator compares: `schemas`, plus `AuditEntry` when one of them is
 * audited and none describes the audit table already.
 */
export function withAuditTable(schemas: readonly AnySchema[]): readonly AnySchema[] {
  if (!schemas.some((s) => s.lifecycle?.audit) || schemas.some((s) => s.table === AUDIT_TABLE)) return schemas
  return [...schemas, AuditEntry]
}
