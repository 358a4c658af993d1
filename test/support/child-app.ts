/**
 * A fixture app (test/fixtures/*.ts) in a child process (`node --import tsx`), for cases about the
 * process itself: signals, exit codes, what it prints. Waits for its `READY <url>` line (or the
 * `ready` pattern's, `<WORD> <url>`); `line()` waits (bounded) for any later one. Children still running after each test are killed.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'

export interface ChildApp {
  readonly proc: ChildProcess
  readonly url: string
  readonly port: number
  /** Every stdout line so far. */
  readonly lines: readonly string[]
  /** Resolves with the first stdout line matching `pattern` (seen already or to come); rejects after `ms`. */
  line(pattern: RegExp, ms?: number): Promise<string>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export async function startChildApp(fixture: string, opts: { env?: Record<string, string>; ready?: RegExp; onFinished: (fn: () => void) => void }): Promise<ChildApp> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'inherit'] })
  opts.onFinished(() => void (proc.exitCode === null && proc.signalCode === null && proc.kill('SIGKILL')))
  const lines: string[] = []
  const waiters = new Set<{ pattern: RegExp; resolve: (l: string) => void }>()
  let buf = ''
  proc.stdout!.on('data', (chunk) => {
    buf += chunk
    let at
    while ((at = buf.indexOf('\n')) !== -1) {
      const l = buf.slice(0, at)
      buf = buf.slice(at + 1)
      lines.push(l)
      for (const w of waiters) if (w.pattern.test(l)) (waiters.delete(w), w.resolve(l))
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })))
  const line = (pattern: RegExp, ms = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((l) => pattern.test(l))
      if (seen) return resolve(seen)
      const timer = setTimeout(() => (waiters.delete(w), reject(new Error(`no line matching ${pattern} within ${ms} ms; got:\n${lines.join('\n')}`))), ms)
      const w = { pattern, resolve: (l: string) => (clearTimeout(timer), resolve(l)) }
      waiters.add(w)
    })
  const early = exited.then((e) => Promise.reject(new Error(`the fixture exited early: ${JSON.stringify(e)}\n${lines.join('\n')}`)))
  const ready = await Promise.race([line(opts.ready ?? /^READY /, 20_000), early])
  const url = ready.slice(ready.indexOf(' ') + 1)
  return { proc, url, port: Number(new URL(url).port), lines, line, exited }
}
