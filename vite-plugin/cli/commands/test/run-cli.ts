// Runs `vela` for the commands' tests: `runCli` spawns the real binary (vite-plugin/bin.mjs),
// `runMain` calls the CLI's `main` in this process (fast; output taken from the console).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { format } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterAll, vi } from 'vitest'

export const BIN = fileURLToPath(new URL('../../../bin.mjs', import.meta.url))
export const FIXTURE = fileURLToPath(new URL('./fixtures/app', import.meta.url))
export const DISCOVERED = fileURLToPath(new URL('./fixtures/discovered', import.meta.url))
export const PLAYGROUND = fileURLToPath(new URL('../../../../playground', import.meta.url))
const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

/**
 * Makes apps from `{ path: text }` maps under the repo's `.scratch/` (git-ignored; inside the repo
 * so their `vela` imports resolve to this package); removed after the test file.
 */
export function useTempApps(): (files: Record<string, string>) => string {
  const made: string[] = []
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
  return (files) => {
    mkdirSync(join(REPO, '.scratch'), { recursive: true })
    const dir = mkdtempSync(join(REPO, '.scratch', 'cli-app-'))
    made.push(dir)
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    return dir
  }
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the binary to its exit. It is killed only after 300 s, a bound for a hung command: a run
 * that boots Vite takes seconds on an idle machine and many times that on a busy one; the test's
 * own timeout should allow for it.
 */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const clean = { ...process.env, PORT: '', VELA_ENV: '', ...env }
    execFile(process.execPath, [BIN, ...args], { env: clean, timeout: 300_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * `main(args)` in-process, run from `cwd` (default: the current directory), with what it printed
 * through `console.log` (stdout) and `console.error` / `console.warn` (stderr). The working
 * directory is restored afterwards (`--root` changes it).
 */
export async function runMain(args: readonly string[], cwd = process.cwd()): Promise<CliResult & { cwdAfter: string }> {
  const before = process.cwd()
  const out: string[] = []
  const err: string[] = []
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${format(...a)}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(`${format(...a)}\n`)),
    vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void err.push(`${format(...a)}\n`)),
  ]
  try {
    const { main } = await import('../../cli.ts')
    process.chdir(cwd)
    const code = await main(args)
    return { code, stdout: out.join(''), stderr: err.join(''), cwdAfter: process.cwd() }
  } finally {
    spies.forEach((spy) => spy.mockRestore())
    process.chdir(before)
  }
}
