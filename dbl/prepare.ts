/**
 * `prepareChanges` (Ecto's `prepare_changes`): work a write needs done in its own transaction,
 * just before its statement. The repository runs the queued functions in order (repo/hooks.ts);
 * each gets the changeset and the repo, and gives the changeset to write. Queries it makes through
 * the repo run on the write's transaction, so a write that fails undoes them, and a function that
 * throws or gives an invalid changeset undoes the write.
 */
import { withChanges, type Changeset } from './changeset.ts'
import type { Repo } from './repo.ts'
import type { AnySchema } from './schema.ts'

/** What `prepareChanges` takes: the changeset as the write would have it, the repo; gives the changeset to write. */
export type Prepare<S extends AnySchema> = (cs: Changeset<S>, repo: Repo) => Changeset<S> | Promise<Changeset<S>>

/**
 * Queues `fn` to run inside the write's transaction just before the write (after validation:
 * an invalid changeset is returned without running it). A write outside a transaction gets one
 * because of it. `fn` may change the changes, or add an error to stop the write; its queries
 * through `repo` are undone if the write fails.
 *
 * @example
 * const cs = cast(Comment, null, params, ['post_id', 'body']).prepareChanges(async (cs, repo) => {
 *   const post = await repo.get(Post, cs.changes.post_id)
 *   const res = await repo.update(change(Post, post, { comments_count: (post?.comments_count ?? 0) + 1 }))
 *   return res.ok ? cs : cs.addError('post_id', 'does not exist')
 * })
 */
export function prepareChanges<S extends AnySchema>(cs: Changeset<S>, fn: Prepare<S>): Changeset<S> {
  if (typeof fn !== 'function') throw new TypeError('prepareChanges: give a function (cs, repo) => changeset')
  return withChanges(cs, { prepare: [...cs.prepare, fn] })
}
