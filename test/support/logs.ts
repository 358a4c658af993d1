/**
 * Strict logs for apps under test. A Vela app catches what a handler, plugin or stream handler
 * throws and logs it (`createApp`'s `log` option) before answering 500, so a test that silenced
 * the log would pass over an unexpected failure. With `strictLog()` the log is collected per case
 * and checked after it: a case fails if it logged anything it did not declare with
 * `expectLogged(/pattern/)`, and if a declared pattern was never logged (a declaration cannot go
 * stale). h3 fails its tests on any unhandled error in the same spirit.
 *
 * `VELA_TEST_LOG=1` also prints every entry, for debugging.
 */
import { afterEach, expect } from 'vitest'

export type LogFn = (message: string, error?: unknown) => void

export interface LogEntry {
  /** The message and the error's own message, as one line: what patterns match. */
  readonly text: string
  /** The case running when it was logged (or `undefined` between cases). */
  readonly during: string | undefined
}

export interface LogCheck {
  /** Pass as the app's `log` option. */
  readonly log: LogFn
  /** Declares that the current case logs an entry matching `pattern` (at least once). */
  expectLogged(pattern: RegExp): void
  /** What was logged since the last check. */
  readonly entries: readonly LogEntry[]
  /** Throws if an entry matches no declared pattern or a pattern matched no entry; then starts afresh. */
  check(): void
}

const errorText = (error: unknown): string => {
  if (error === undefined) return ''
  if (error instanceof Error)
    return `: ${error.name}: ${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}`
  return `: ${String(error)}`
}

/** The collector alone, without hooks (strictLog registers them). */
export function createLogCheck(): LogCheck {
  let entries: LogEntry[] = []
  let expected: RegExp[] = []
  return {
    log(message, error) {
      if (process.env.VELA_TEST_LOG) console.error(`[vela test log] ${message}`, error ?? '')
      entries.push({ text: `${message}${errorText(error)}`, during: expect.getState().currentTestName })
    },
    expectLogged(pattern) {
      expected.push(pattern)
    },
    get entries() {
      return entries
    },
    check() {
      const unexpected = entries.filter((e) => !expected.some((p) => p.test(e.text)))
      const missing = expected.filter((p) => !entries.some((e) => p.test(e.text)))
      const seen = entries
      entries = []
      expected = []
      const problems = [
        ...unexpected.map((e) => `logged without expectLogged(): ${e.text}${e.during ? '' : ' (between cases)'}`),
        ...missing.map(
          (p) =>
            `expectLogged(${p}) but nothing matching was logged${seen.length ? `; logged: ${seen.map((e) => e.text).join(' | ')}` : ''}`,
        ),
      ]
      if (problems.length) throw new Error(`strict log:\n  ${problems.join('\n  ')}`)
    },
  }
}

/**
 * A log collector checked after every case of the enclosing `describe` (or file). Call it where
 * hooks may be registered: at the top of a file or inside `describe`.
 */
export function strictLog(): LogCheck {
  const logs = createLogCheck()
  afterEach(() => logs.check())
  return logs
}
