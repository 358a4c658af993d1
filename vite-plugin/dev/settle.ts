/**
 * Waiting on user code that may never settle (a stop hook on an unreachable collector, a dispose
 * callback waiting on a dead pool): at most `ms`, after which the caller goes on and the work is
 * left to finish, or not, on its own.
 */

export type Settled = { readonly late: false; readonly error?: unknown } | { readonly late: true }

/** Runs `work` and waits for it at most `ms`; never throws (a failure is returned as `error`). */
export async function settleWithin(ms: number, work: () => unknown): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ late: true }), ms)
  })
  const done = Promise.resolve()
    .then(work)
    .then(
      (): Settled => ({ late: false }),
      (error: unknown): Settled => ({ late: false, error: error ?? new Error(String(error)) }),
    )
  try {
    return await Promise.race([done, late])
  } finally {
    clearTimeout(timer)
  }
}
