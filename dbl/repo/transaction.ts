/**
 * `repo.transaction(fn)`. Everything `fn` does through the repo runs in one transaction (the
 * connection travels in AsyncLocalStorage, see context.ts). It rolls back when:
 * - `fn` calls `repo.rollback(value)`: the result is `{ ok: false, error: value }`;
 * - `fn` returns a failed result (`{ ok: false, error }`): that result is returned as is;
 * - `fn` throws: the error is rethrown after the rollback.
 * Otherwise it commits: a result returned by `fn` is passed through, any other value `v` becomes
 * `{ ok: true, value: v }`. A nested call reuses the outer transaction; if the nested one rolls
 * back, the outer one can no longer commit and returns the nested failure (Ecto's behaviour).
 */
import { err, isResult, ok, type Err, type Ok, type Result } from '../result.ts'
import type { RepoContext, TxState } from './context.ts'

/** What `{ ok: true }` holds when `fn` returns `T`: a result's value, any other value as it is. */
type CommitValue<T> = Exclude<T, Err<unknown>> extends infer P ? (P extends Ok<infer V> ? V : P) : never

/**
 * The result of a transaction whose function returns `T`: `{ ok: true, value }` with what it
 * returned (its value, for a result), or a failure: a failed result it returned, or the value given
 * to `repo.rollback` (`unknown`). The value stays one type: `Ok<Post | undefined>`, not
 * `Ok<Post> | Ok<undefined>`.
 */
export type TransactionResult<T> = Ok<CommitValue<T>> | (T extends Err<infer E> ? Err<E> : never) | Err<unknown>

class Rollback {
  readonly value: unknown
  constructor(value: unknown) {
    this.value = value
  }
}

export function rollback(ctx: RepoContext, value: unknown): never {
  if (!ctx.tx.getStore()) throw new Error('repo.rollback() called outside a transaction')
  throw new Rollback(value)
}

function asResult(value: unknown): Result<unknown, unknown> {
  return isResult(value) ? value : ok(value)
}

export async function transaction<T>(ctx: RepoContext, fn: () => Promise<T> | T): Promise<TransactionResult<T>> {
  const outer = ctx.tx.getStore()
  if (outer) return nested(outer, fn) as Promise<TransactionResult<T>>
  const adapter = ctx.adapter ?? (await ctx.start())
  const committed: (() => void)[] = []
  try {
    const value = await adapter.transaction(async (conn) => {
      const state: TxState = { conn, tainted: undefined, afterCommit: committed }
      const v = await ctx.tx.run(state, fn)
      // Throwing makes the adapter roll back; the catch below turns it back into a result.
      if (state.tainted) throw new Rollback(state.tainted.value)
      if (isResult(v) && !v.ok) throw new Rollback(v.error)
      return v
    })
    // Committed: what `repo.afterCommit` queued runs now, outside the transaction's context. A
    // callback that throws cannot undo the commit, so it is logged rather than thrown.
    for (const fn of committed) {
      try {
        fn()
      } catch (e) {
        console.error('vela/dbl: a repo.afterCommit callback threw after the commit:', e)
      }
    }
    return asResult(value) as TransactionResult<T>
  } catch (e) {
    if (e instanceof Rollback) return err(e.value) as TransactionResult<T>
    throw e
  }
}

async function nested(state: TxState, fn: () => Promise<unknown> | unknown): Promise<Result<unknown, unknown>> {
  try {
    const v = await fn()
    if (isResult(v) && !v.ok) state.tainted ??= { value: v.error }
    return asResult(v)
  } catch (e) {
    state.tainted ??= { value: e instanceof Rollback ? e.value : e }
    if (e instanceof Rollback) return err(e.value)
    throw e
  }
}
