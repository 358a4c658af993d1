/**
 * A fixture app (`test/fixtures/*.ts`) in a child process run with tsx: waits for its
 * `READY <url>` line (or `<WORD> <url>` matching `ready`), lets a test wait (bounded) for its
 * other output lines and its exit, reads its memory, and is killed after the file's tests.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll } from 'vitest'

export interface ChildApp {
  readonly proc: ChildProcess
  readonly url: string
  readonly port: number
  /** Every stdout line so far. */
  readonly lines: readonly string[]
  /** The first stdout line matching `pattern`, seen or to come; rejects after `ms` (default 60 s). */
  line(pattern: RegExp, ms?: number): Promise<string>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resident memory in bytes (VmRSS of /proc/<pid>/status). */
  rss(): number
}

const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

export async function startChildApp(
  fixture: URL,
  opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[]; readyMs?: number; ready?: RegExp } = {},
): Promise<ChildApp> {
  const { env = {}, nodeArgs = [], readyMs = 120_000, ready = /^READY / } = opts
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', fixture.pathname], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(proc)
  const lines: string[] = []
  const waiters = new Set<() => void>()
  let rest = ''
  proc.stdout!.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n')
    rest = parts.pop()!
    lines.push(...parts)
    waiters.forEach((w) => w())
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const line = (pattern: RegExp, ms = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => (
          waiters.delete(check),
          reject(new Error(`no line ${pattern} within ${ms} ms; output so far:\n${lines.join('\n')}`))
        ),
        ms,
      )
      const check = () => {
        const seen = lines.find((l) => pattern.test(l))
        if (seen !== undefined) clearTimeout(timer), waiters.delete(check), resolve(seen)
      }
      waiters.add(check)
      check()
    })
  const first = await line(ready, readyMs)
  const url = first.slice(first.indexOf(' ') + 1)
  const rss = () => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) * 1024
  return { proc, url, port: Number(new URL(url).port), lines, line, exited, rss }
}
