/**
 * Runs what a write of a changeset has around it (hooks.ts describes the contract): its
 * `prepareChanges` functions, the schema's before-hook, the statement, the audit row and the
 * after-hook, in one transaction: the caller's when there is one, else one of its own. A write
 * with none of them never comes here (`hasHooks`), so it costs no transaction and no promise more.
 */
import { recordAudit } from '../audit/record.ts'
import { isChangeset, withChanges, type Changeset } from '../changeset.ts'
import { err, type Result } from '../result.ts'
import type { AnySchema, HookName, RecordOf } from '../schema.ts'
import type { RepoContext } from './context.ts'
import { transaction } from './transaction.ts'

/** Whether a write of `cs` has anything to run around its statement. */
export function hasHooks(cs: Changeset): boolean {
  return cs.prepare.length !== 0 || cs.schema.lifecycle !== undefined
}

type WriteAction = 'insert' | 'update' | 'delete'
type Written<S extends AnySchema> = Result<RecordOf<S> | null, Changeset<S>>

const HOOKS: Record<WriteAction, readonly [HookName, HookName]> = {
  insert: ['beforeInsert', 'afterInsert'],
  update: ['beforeUpdate', 'afterUpdate'],
  delete: ['beforeDelete', 'afterDelete'],
}

/** A prepare function or a before-hook must give a changeset of the same schema (nothing: keep it). */
function checked<S extends AnySchema>(given: unknown, previous: Changeset<S>, what: string): Changeset<S> {
  if (given === undefined) return previous
  if (isChangeset(given) && given.schema === previous.schema) return given as Changeset<S>
  throw new TypeError(`vela/dbl: ${what} on ${previous.schema.table} must return the changeset to write`)
}

/**
 * `write` (the statement, with association changes) wrapped in the changeset's and its schema's
 * work; `recheck` runs the write's own checks again on what the functions gave. An invalid
 * changeset from a function stops the write: `{ ok: false, error }`, the transaction rolled back.
 */
export async function withHooks<S extends AnySchema, R extends Written<S>>(
  ctx: RepoContext,
  cs: Changeset<S>,
  action: WriteAction,
  recheck: (cs: Changeset<S>) => Changeset<S>,
  write: (cs: Changeset<S>) => Promise<R>,
): Promise<R> {
  const lifecycle = cs.schema.lifecycle
  const [beforeName, afterName] = HOOKS[action]
  const res = await transaction(ctx, async () => {
    let current = cs
    for (const fn of cs.prepare) current = checked(await fn(current, ctx.self), current, 'a prepareChanges function')
    const before = lifecycle?.hooks[beforeName]
    if (before) current = checked(await before(current, ctx.self), current, `the ${beforeName} hook`)
    // The functions ran: the statement's own write must not run them again.
    if (current.prepare.length) current = withChanges(current, { prepare: [] })
    current = recheck(current)
    if (!current.valid || current.errors.length) return err(current)
    const written = await write(current)
    if (!written.ok || written.value === null) return written
    if (lifecycle?.audit) await recordAudit(ctx, current, action, written.value as Record<string, unknown>)
    const after = lifecycle?.hooks[afterName]
    if (after) await after(written.value, current, ctx.self)
    return written
  })
  return res as R
}
