/**
 * Errors met loading an app (its Vite config, an import of one of its modules, `createApp`
 * refusing it) are remembered here, not wrapped: messages, code frames and `instanceof` checks stay
 * as they were, and the CLI exits 2 for them ("could not run"), 1 for a command's own failure
 * (cli.ts). A leaf: the CLI asks without loading Vite.
 */
const loadFailures = new WeakSet<object>()

/** Remembers `err` (or, if it is not an object, an Error made of it) as a load failure; returns it. */
export function markAppLoadFailure(err: unknown): object {
  const error = typeof err === 'object' && err !== null ? err : new Error(String(err))
  loadFailures.add(error)
  return error
}

/** Whether `err`, or an error it wraps as its `cause` (a few levels deep), was marked by markAppLoadFailure. */
export function isAppLoadFailure(err: unknown): boolean {
  for (
    let e = err, depth = 0;
    typeof e === 'object' && e !== null && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (loadFailures.has(e)) return true
  }
  return false
}

/** Throws `err` marked as a load failure (for `.catch`). */
export const failedToLoad = (err: unknown): never => {
  throw markAppLoadFailure(err)
}
