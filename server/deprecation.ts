/**
 * Deprecation warnings for forms of the API that still work for one release. Each is a Node
 * `DeprecationWarning` with a code of its own (`VELA_DEP_…`), printed once per process at its
 * first use: a handler called a thousand times does not fill the log, and an app silences one
 * warning with `node --disable-warning=VELA_DEP_…` (or all with `--no-deprecation`). They go
 * through `process.emitWarning`, not the app's log, so they never count as a request's failure.
 */

const warned = new Set<string>()

/** Emits the warning `code` with `message`, unless this process has emitted that code already. */
export function warnDeprecated(code: string, message: string): void {
  if (warned.has(code)) return
  warned.add(code)
  process.emitWarning(message, { type: 'DeprecationWarning', code })
}

/** Forgets which warnings were emitted, so a test can see a first use again. */
export function forgetDeprecationWarnings(): void {
  warned.clear()
}
