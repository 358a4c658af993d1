/** Runs a multi (../multi.ts) in one transaction; the first failing step rolls everything back. */
import type { Multi, MultiFailure } from '../multi.ts'
import { err, isResult, ok, type Result } from '../result.ts'
import type { RepoContext } from './context.ts'
import { rollback, transaction } from './transaction.ts'
import { insert, remove, update } from './write.ts'

export async function runMulti<C extends Record<string, unknown>>(
  ctx: RepoContext,
  repo: unknown,
  m: Multi<C, never>,
): Promise<Result<C, MultiFailure<C>>> {
  const res = await transaction(ctx, async () => {
    const changes: Record<string, unknown> = {}
    for (const step of m.steps) {
      let out: Result<unknown, unknown>
      try {
        if (step.op === 'run') {
          const v: unknown = await step.fn(repo, { ...changes })
          out = isResult(v) ? v : ok(v)
        } else {
          const cs = step.changeset({ ...changes })
          out =
            step.op === 'insert'
              ? await insert(ctx, cs)
              : step.op === 'update'
                ? await update(ctx, cs)
                : await remove(ctx, cs)
        }
      } catch (e) {
        // A thrown error is a failure of this step too: name it, roll back, and rethrow below.
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { multiStep: step.name })
      }
      if (!out.ok) rollback(ctx, { step: step.name, error: out.error, completed: { ...changes } })
      changes[step.name] = out.value
    }
    return changes
  })
  return res.ok ? ok(res.value as C) : err(res.error as MultiFailure<C>)
}
