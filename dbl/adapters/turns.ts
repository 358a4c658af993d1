/**
 * One-at-a-time turns with a bounded wait: what the PGlite adapter runs every query and
 * transaction through. PGlite serialises its queries itself, but its queue has no bound, so a
 * long transaction (or one waiting on something that never comes) would hold every other caller
 * forever. Here a caller that waits longer than `waitMs` for its turn gets `onTimeout()`'s error
 * and is taken out of the queue: its statement never runs, so a failed write is never applied
 * later behind the caller's back. A turn in progress is not interrupted.
 */

export type Turns = <T>(fn: () => Promise<T>) => Promise<T>

export function createTurns(waitMs: number, onTimeout: () => Error): Turns {
  let busy = false
  const waiting: { go(): void }[] = []
  // The turn passes straight to the next waiter, so nobody can slip in between.
  const release = () => {
    const next = waiting.shift()
    if (next) next.go()
    else busy = false
  }
  const wait = () =>
    new Promise<void>((resolve, reject) => {
      const entry = {
        go() {
          clearTimeout(timer)
          resolve()
        },
      }
      const timer = waitMs
        ? setTimeout(() => {
            waiting.splice(waiting.indexOf(entry), 1)
            reject(onTimeout())
          }, waitMs)
        : undefined
      waiting.push(entry)
    })
  return async (fn) => {
    if (busy) await wait()
    else busy = true
    try {
      return await fn()
    } finally {
      release()
    }
  }
}
