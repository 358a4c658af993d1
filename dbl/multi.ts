/**
 * Ecto.Multi: a list of named steps that `repo.multi(m)` runs in one transaction. The first step
 * that fails stops the run, everything is rolled back, and the result names it:
 * `{ ok: false, error: { step, error, completed } }` (`completed`: values of the earlier steps,
 * which were rolled back). On success the value maps each step name to its value.
 *
 *   const m = newMulti<Repo>()
 *     .insert('user', cast(User, {}, params, ['name', 'email']))
 *     .insert('post', ({ user }) => cast(Post, {}, { title: 'Hi', user_id: user.id }, ['title', 'user_id']))
 *     .run('audit', (repo, { post }) => repo.query('INSERT INTO audit_log (post_id) VALUES ($1)', [post.id]))
 *
 * Builders are immutable: each call returns a new multi. Step names must be unique.
 */
import type { Changeset } from './changeset.ts'
import type { Result } from './result.ts'
import type { AnySchema, RecordOf } from './schema.ts'

export type MultiStep =
  | {
      readonly name: string
      readonly op: 'insert' | 'update' | 'delete'
      readonly changeset: (changes: Record<string, unknown>) => Changeset
    }
  | {
      readonly name: string
      readonly op: 'run'
      readonly fn: (
        repo: unknown,
        changes: Record<string, unknown>,
      ) => Promise<Result<unknown, unknown>> | Result<unknown, unknown>
    }

type CsArg<S extends AnySchema, C> = Changeset<S> | ((changes: C) => Changeset<S>)

/** Named steps for `repo.multi` to run in one transaction; each builder method returns a new multi. */
export interface Multi<C extends Record<string, unknown> = {}, Repo = unknown> {
  readonly kind: 'vela.multi'
  readonly steps: readonly MultiStep[]
  insert<const N extends string, S extends AnySchema>(
    name: N,
    cs: CsArg<S, C>,
  ): Multi<C & { [K in N]: RecordOf<S> }, Repo>
  update<const N extends string, S extends AnySchema>(
    name: N,
    cs: CsArg<S, C>,
  ): Multi<C & { [K in N]: RecordOf<S> }, Repo>
  delete<const N extends string, S extends AnySchema>(
    name: N,
    cs: CsArg<S, C>,
  ): Multi<C & { [K in N]: RecordOf<S> }, Repo>
  /** Any function; its failed result fails the step. `repo` is the repository running the multi. */
  run<const N extends string, V>(
    name: N,
    fn: (repo: Repo, changes: C) => Promise<Result<V, unknown>> | Result<V, unknown>,
  ): Multi<C & { [K in N]: V }, Repo>
}

function build<C extends Record<string, unknown>, Repo>(steps: readonly MultiStep[]): Multi<C, Repo> {
  const add = (step: MultiStep) => {
    if (steps.some((s) => s.name === step.name)) throw new Error(`multi: a step named "${step.name}" already exists`)
    return build([...steps, step]) as never
  }
  const csStep = (op: 'insert' | 'update' | 'delete') => (name: string, cs: Changeset | ((c: C) => Changeset)) =>
    add({
      name,
      op,
      changeset: typeof cs === 'function' ? (cs as (c: Record<string, unknown>) => Changeset) : () => cs,
    })
  return {
    kind: 'vela.multi',
    steps,
    insert: csStep('insert'),
    update: csStep('update'),
    delete: csStep('delete'),
    run: (name: string, fn: (repo: Repo, c: C) => unknown) => add({ name, op: 'run', fn: fn as never }),
  }
}

/**
 * An empty multi: named steps that `repo.multi` runs in one transaction. Pass the repo's type to type the `repo` argument of `run` steps: `newMulti<Repo>()`.
 *
 * @example
 * const m = newMulti<Repo>()
 *   .insert('user', cast(User, null, params, ['name', 'email']))
 *   .insert('note', ({ user }) => cast(Note, null, { title: 'Welcome', user_id: user.id }, ['title', 'user_id']))
 * const res = await repo.multi(m)
 * if (res.ok) console.log(res.value.user.id, res.value.note.id)
 * else console.error(`step ${res.error.step} failed`, res.error.error)
 */
export function newMulti<Repo = unknown>(): Multi<{}, Repo> {
  return build([])
}

/** Why `repo.multi` failed: the step that failed, its error, and the values of the steps before it (rolled back). */
export interface MultiFailure<C = Record<string, unknown>> {
  readonly step: string
  readonly error: unknown
  readonly completed: Partial<C>
}
