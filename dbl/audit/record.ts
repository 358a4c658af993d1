/**
 * Writes one audit row for a write of an audited schema (repo/run-hooks.ts calls it in the write's
 * transaction, right after the statement): the changed fields as `{ field: [old, new] }`.
 * Timestamps the repository sets (`inserted_at`, `updated_at`) and the primary key (the row's
 * `record_id`, JSON for a composite key) are left out of the changes; redacted fields show `"[redacted]"`.
 */
import type { Action, Changeset } from '../changeset.ts'
import type { AnySchema } from '../schema.ts'
import { compiled, dumpValue, kx, loadKnex, marker, paramsFor } from '../sql.ts'
import { exec, type RepoContext } from '../repo/context.ts'
import { currentActor } from './actor.ts'
import { AUDIT_TABLE, AuditEntry, auditRecordId } from './entry.ts'

const AUTOMATIC = new Set(['inserted_at', 'updated_at'])
const REDACTED = '[redacted]'
const COLUMNS = ['table_name', 'record_id', 'action', 'actor', 'changes', 'recorded_at'] as const

type Row = Readonly<Record<string, unknown>>

function same(a: unknown, b: unknown): boolean {
  if ((a ?? null) === (b ?? null)) return true
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b)
}

/** `{ field: [old, new] }` for each stored field that differs between `before` and `after`. */
export function auditChanges(schema: AnySchema, before: Row, after: Row, redact: readonly string[]) {
  const out: Record<string, [unknown, unknown]> = {}
  for (const f of schema.fields) {
    if (f.virtual || f.primaryKey || AUTOMATIC.has(f.name)) continue
    const old = before[f.name] ?? null
    const now = after[f.name] ?? null
    if (same(old, now)) continue
    out[f.name] = redact.includes(f.name)
      ? [old === null ? null : REDACTED, now === null ? null : REDACTED]
      : [old, now]
  }
  return out
}

/** Inserts the audit row of `action` on `record` (the stored row; for a delete, the row as it was). */
export async function recordAudit(ctx: RepoContext, cs: Changeset, action: Action, record: Row): Promise<void> {
  const schema = cs.schema
  const redact = schema.lifecycle?.audit?.redact ?? []
  const before = action === 'insert' ? {} : action === 'delete' ? record : (cs.data as Row)
  const after = action === 'delete' ? {} : record
  const changes = auditChanges(schema, before, after, redact)
  // An update whose hooks took every change away wrote nothing: nothing to record.
  if (action === 'update' && Object.keys(changes).length === 0) return
  const values = [
    schema.table,
    schema.primaryKeys.length === 1
      ? String(record[schema.primaryKey])
      : auditRecordId(
          schema.primaryKeys,
          schema.primaryKeys.map((k) => record[k]),
        ),
    action,
    dumpValue(AuditEntry.fieldsByName.actor!, currentActor()),
    dumpValue(AuditEntry.fieldsByName.changes!, changes),
    new Date(),
  ]
  if (!kx) await loadKnex()
  const c = compiled(`insert ${AUDIT_TABLE} audit`, () => {
    const data: Record<string, number> = {}
    COLUMNS.forEach((f, i) => (data[f] = marker(i)))
    return kx(AUDIT_TABLE).insert(data)
  })
  await exec(ctx, c.sql, paramsFor(c, values), 'INSERT', AUDIT_TABLE)
}
