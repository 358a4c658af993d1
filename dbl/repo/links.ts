/**
 * Replacing the set of links of one record in a manyToMany join table, inside the write's
 * transaction (write.ts saves the linked records first). An update deletes the links left out of
 * the new set, then inserts the new ones; an insert only inserts. A key that matches no related row
 * fails the join table's foreign key: that becomes "does not exist" on the association, and the
 * transaction rolls the whole write back.
 */
import type { ResolvedAssoc } from '../assoc.ts'
import { addError, type Changeset } from '../changeset.ts'
import { constraintError } from '../constraints.ts'
import { isServerError, toDbError } from '../db-error.ts'
import { fkeyName } from '../migrations/columns.ts'
import { err, ok, type Result } from '../result.ts'
import type { AnySchema } from '../schema.ts'
import { kx, loadKnex, paramsFor } from '../sql.ts'
import { exec, type RepoContext } from './context.ts'
import { deleteOtherLinks, insertLinks } from './through-sql.ts'

/**
 * Makes the join table link `ownerKey` to exactly the records `linked` (duplicates linked once).
 * `replacing`: the owner existed before this write, so links may have to go.
 */
export async function replaceLinks<S extends AnySchema>(
  ctx: RepoContext,
  cs: Changeset<S>,
  assoc: ResolvedAssoc,
  ownerKey: unknown,
  linked: readonly Record<string, unknown>[],
  replacing: boolean,
): Promise<Result<void, Changeset<S>>> {
  const t = assoc.through!
  const keys = [...new Set(linked.map((r) => r[t.relatedColumn]))]
  if (!kx) await loadKnex()
  try {
    if (replacing) {
      const c = deleteOtherLinks(t)
      await exec(ctx, c.sql, paramsFor(c, [ownerKey, keys]), 'DELETE', t.table)
    }
    if (keys.length > 0) {
      const c = insertLinks(cs.schema, t)
      await exec(ctx, c.sql, paramsFor(c, [ownerKey, keys]), 'INSERT', t.table)
    }
    return ok(undefined)
  } catch (e) {
    if (!isServerError(e)) throw e
    const dbError = toDbError(e)
    const missing =
      dbError.constraintKind === 'foreign_key' &&
      dbError.table === t.table &&
      (dbError.constraint === fkeyName(t.table, t.relatedKey) ||
        (dbError.detail ?? '').startsWith(`Key (${t.relatedKey})=`))
    if (missing)
      return err(
        addError(cs, assoc.name, 'does not exist', { constraint: 'foreign_key', constraint_name: dbError.constraint }),
      )
    const failed = constraintError(cs, dbError)
    if (!failed) throw dbError
    return err(failed)
  }
}
