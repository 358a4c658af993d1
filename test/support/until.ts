/**
 * Polls `check` every 10 ms until it holds, or fails naming `what` after `ms` (default 15 s, a
 * bound for a machine whose cores are busy, not an expectation): for waiting on something a
 * server or a client does in the background, without a guessed sleep.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
