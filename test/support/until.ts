/**
 * Polls `check` every 10 ms until it holds, or fails naming `what` after `ms` (default 3 s): for
 * waiting on something a server or a client does in the background, without a guessed sleep.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
