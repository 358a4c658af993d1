/**
 * `repo.start()` on a PostgreSQL server: the first connection is tried until it works, so an app
 * started while its database is still coming up (a container starting alongside, a failover)
 * waits for it rather than dying on the first refusal, and an app whose database is really gone
 * fails in bounded time with one line naming `host:port`.
 *
 * Defaults: 5 attempts, waiting 0.5, 1, 2 then 4 s between them, never starting one after 10 s
 * (so a refused port gives up after about 7.5 s; a silent one, whose attempts each take
 * `connectTimeoutMs`, after about 10.5 s). One log line per retry. Only availability failures
 * (unavailable.ts) are retried: a server that answers "no such database" or "authentication
 * failed" is answered at once, as a `DbUnavailableError` (`refused`) carrying its message.
 */
import { isServerError } from '../db-error.ts'
import { DbUnavailableError, isDbUnavailable } from '../unavailable.ts'

/** How `repo.start()` retries the first connection to a PostgreSQL server that is not up yet. */
export interface StartRetryOptions {
  /** Attempts in all, the first included (default 5; 1 = no retry). */
  readonly attempts?: number
  /** The wait before the second attempt, doubled before each further one (default 500 ms). */
  readonly delayMs?: number
  /** No attempt starts later than this after the first (default 10000 ms). */
  readonly timeoutMs?: number
}

export const DEFAULT_START_RETRY = { attempts: 5, delayMs: 500, timeoutMs: 10_000 } as const

export function resolveStartRetry(opts: StartRetryOptions = {}): Required<StartRetryOptions> {
  const out = { ...DEFAULT_START_RETRY, ...opts }
  for (const [key, min] of [
    ['attempts', 1],
    ['delayMs', 0],
    ['timeoutMs', 0],
  ] as const) {
    const v = out[key]
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
      throw Object.assign(
        new Error(`defineRepo: startRetry.${key} must be a whole number ≥ ${min}, got ${String(v)}`),
        { code: 'VELA_ERR_CONFIG' },
      )
    }
  }
  return out
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `probe` until it resolves, retrying availability failures as configured. */
export async function firstConnection(
  probe: () => Promise<unknown>,
  address: string,
  retry: Required<StartRetryOptions>,
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now()
  for (let attempt = 1; ; attempt++) {
    try {
      await probe()
      return
    } catch (e) {
      if (!isDbUnavailable(e)) {
        if (!isServerError(e)) throw e
        const { message, code } = e as { message: string; code: string }
        throw new DbUnavailableError('refused', address, `database ${address}: ${message} (${code})`, { cause: e })
      }
      const delay = retry.delayMs * 2 ** (attempt - 1)
      if (attempt >= retry.attempts || Date.now() + delay - started > retry.timeoutMs) {
        const took = ((Date.now() - started) / 1000).toFixed(1)
        throw new DbUnavailableError(
          e.reason,
          e.address,
          `${e.message}; gave up after ${attempt} attempt${attempt > 1 ? 's' : ''} in ${took} s`,
          { cause: e },
        )
      }
      log(`${e.message}; attempt ${attempt + 1} of ${retry.attempts} in ${delay} ms`)
      await sleep(delay)
    }
  }
}
