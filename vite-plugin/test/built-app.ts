// Test support for build tests: copies of fixture apps to build and edit, and built servers run
// with plain node from a folder holding nothing but the build's output.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'
import { TEST_WORKER_FLAGS } from '../vitest.ts'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
export const BIN = join(REPO, 'vite-plugin/bin.mjs')

/**
 * A fresh copy of `vite-plugin/test/fixtures/<name>` under the repo's `.scratch/` (git-ignored):
 * inside the repo so the app's `vela` imports resolve to this package; a copy so builds and edits
 * never touch the fixture or collide with other tests.
 */
export function copyFixture(name: string): string {
  mkdirSync(join(REPO, '.scratch'), { recursive: true })
  const dir = mkdtempSync(join(REPO, '.scratch', `${name}-`))
  const from = join(REPO, 'vite-plugin/test/fixtures', name)
  // Build output left in the fixture by a manual run is not part of it.
  const output = [join(from, 'dist'), join(from, 'priv/assets')]
  cpSync(from, dir, { recursive: true, filter: (src) => !output.includes(src) })
  return dir
}

/** Temporary folders of one test file (fixture copies, data folders), removed after its tests. */
export function useTempDirs(): { fixture(name: string): string; dir(prefix: string): string } {
  const made: string[] = []
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
  const keep = (dir: string) => (made.push(dir), dir)
  return { fixture: (name) => keep(copyFixture(name)), dir: (prefix) => keep(mkdtempSync(join(tmpdir(), prefix))) }
}

export interface RunningServer {
  readonly url: string
  output(): string
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/**
 * Copies a build's output to an empty temp folder and runs its `server/index.mjs` there with plain
 * node (cwd = that folder, PORT=0, no VELA_ENV unless `env` sets one). `dir` is the whole output
 * (`dist/`, holding `server/`, `src/views/`, `priv/`) or only the server folder (`dist/server`).
 * V8 compiles WebAssembly with Liftoff only there (TEST_WORKER_FLAGS): the embedded database's
 * start costs ~3 s of CPU less, and nothing a test can observe changes.
 */
function runCopy(dir: string, env: NodeJS.ProcessEnv) {
  const cwd = mkdtempSync(join(tmpdir(), 'vela-run-'))
  const onlyServer = existsSync(join(dir, 'index.mjs'))
  cpSync(dir, onlyServer ? join(cwd, 'server') : cwd, { recursive: true })
  const child = spawn(process.execPath, [...TEST_WORKER_FLAGS, 'server/index.mjs'], {
    cwd,
    env: { ...process.env, PORT: '0', VELA_ENV: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const seen = new Set<() => void>()
  const onData = (d: Buffer) => {
    output += d
    seen.forEach((check) => check())
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise<number | null>((r) =>
    child.once('close', (code) => (rmSync(cwd, { recursive: true, force: true }), r(code))),
  )
  /** Resolves with the first match of `pattern` in the output, or undefined once the process exits or `ms` pass. */
  const waitFor = (pattern: RegExp, ms: number) =>
    new Promise<RegExpExecArray | undefined>((resolve) => {
      const timer = setTimeout(() => done(undefined), ms)
      const done = (m: RegExpExecArray | undefined) => (clearTimeout(timer), seen.delete(check), resolve(m))
      const check = () => {
        const m = pattern.exec(output)
        if (m) done(m)
      }
      seen.add(check)
      check()
      void exited.then(() => done(pattern.exec(output) ?? undefined))
    })
  return { child, output: () => output, exited, waitFor }
}

/** A built server started from a copy of `dir` (see runCopy); throws with its output if it does not listen. */
export async function startBuilt(dir: string, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const run = runCopy(dir, env)
  // The start line names the bound address (0.0.0.0 or [::] on every interface): clients use 127.0.0.1.
  const port = (await run.waitFor(/listening on http:\/\/\S+:(\d+)/, 120_000))?.[1]
  const url = port && `http://127.0.0.1:${port}`
  const stop = async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM')
    return run.exited
  }
  if (!url) {
    await stop()
    throw new Error(`the built server did not start:\n${run.output()}`)
  }
  return { url, output: run.output, stop }
}

/** A built server expected to refuse to start: its exit code and output (killed after `killAfterMs`, 120 s by default). */
export async function runBuiltToExit(
  dir: string,
  env: NodeJS.ProcessEnv = {},
  killAfterMs = 120_000,
): Promise<{ code: number | null; output: string }> {
  const run = runCopy(dir, env)
  const timer = setTimeout(() => run.child.kill('SIGKILL'), killAfterMs)
  const code = await run.exited
  clearTimeout(timer)
  return { code, output: run.output() }
}
