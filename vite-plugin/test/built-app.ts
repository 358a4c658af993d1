// Test support for build tests: copies of fixture apps to build and edit, and built servers run
// with plain node from a folder holding nothing but the bundle.
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

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

/** Copies `serverDir` (dist/server) to an empty temp folder and runs its index.mjs there on a free port. */
export async function startBuilt(serverDir: string, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const cwd = mkdtempSync(join(tmpdir(), 'vela-run-'))
  cpSync(serverDir, join(cwd, 'server'), { recursive: true })
  const child = spawn(process.execPath, ['server/index.mjs'], { cwd, env: { ...process.env, PORT: '0', VELA_ENV: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((r) => child.once('exit', r))
  const deadline = Date.now() + 40_000
  while (!/listening on \S+/.test(output) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50))
  const url = /listening on (\S+)/.exec(output)?.[1]
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const code = await exited
    rmSync(cwd, { recursive: true, force: true })
    return code
  }
  if (!url) {
    await stop()
    throw new Error(`the built server did not start:\n${output}`)
  }
  return { url, output: () => output, stop }
}
