/**
 * Optimistic locking (Ecto's `optimistic_lock`): a version field that every update increments and
 * that the UPDATE / DELETE also filters on. Two writers that read the same version cannot both
 * win: the second one's statement matches no row, and the repository answers it with the
 * changeset carrying "is stale" on the version field, so the write is refused, not lost.
 *
 * **Choice:** a stale write is `{ ok: false, error: changeset }` with `{ lock_version: ['is stale'] }`
 * (meta `{ stale: true }`), the form every other refused write takes (Ecto raises
 * `StaleEntryError` unless given `stale_error_field`): a handler answers 409 or re-renders the form
 * with the error, and nothing throws. A row deleted meanwhile gives the same answer.
 */
import { getField, withChanges, type Changeset, type FieldOf } from './changeset.ts'
import type { AnySchema, RecordOf } from './schema.ts'

/** The fields of `S` holding a number: what can be a lock version. */
export type NumberFieldOf<S extends AnySchema> = {
  [K in FieldOf<S>]: RecordOf<S>[K] extends number | null | undefined ? K : never
}[FieldOf<S>]

const INT4_MAX = 2147483647

/** Ecto's `increment_with_rollover`: the next version, back to 1 past PostgreSQL's INTEGER range. */
function nextVersion(current: number | null): number {
  return current === null || current >= INT4_MAX ? 1 : current + 1
}

/**
 * Makes the update or delete of `cs` conditional on `field` still holding the value it has in the
 * changeset (the stored one, or the one a form sent back and `cast` read), and sets `field` to the
 * next version (`incrementer`, default +1). A record whose version is null is matched with IS NULL
 * and gets version 1. Inserts ignore the condition and store the new version.
 *
 * @example
 * const cs = optimisticLock(cast(Post, post, body, ['title', 'lock_version']), 'lock_version')
 * const res = await repo.update(cs)
 * if (!res.ok && isChangeset(res.error)) return json({ errors: errorsToJson(res.error) }, { status: 409 }) // { errors: { lock_version: ['is stale'] } }
 */
export function optimisticLock<S extends AnySchema>(
  cs: Changeset<S>,
  field: NumberFieldOf<S>,
  incrementer: (current: number | null) => number = nextVersion,
): Changeset<S> {
  const f = cs.schema.fieldsByName[field]
  if (!f || f.virtual || (f.type !== 'integer' && f.type !== 'id'))
    throw new Error(`optimisticLock: ${cs.schema.table}.${String(field)} must be a stored integer field`)
  const current = (getField(cs, field) ?? null) as number | null
  return withChanges(cs, {
    changes: { ...cs.changes, [field]: incrementer(current) },
    filters: { ...cs.filters, [field]: current },
  })
}
