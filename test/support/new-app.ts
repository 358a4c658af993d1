/**
 * A new user's first hour with Vela, step by step, from the packed package: `npm pack`, `vela new`
 * run from the tarball (`npm exec`), the tarball installed into the new app (no link to this repo),
 * then the app's own toolchain: `tsc --noEmit`, `vitest run`, `vite build`, the built server run
 * from a copy of `dist/` alone, and `vite` (dev) answering an edit without a restart. Each step
 * returns what it measured; test/new-app.test.ts asserts the behaviour, `npm run bench -- newapp`
 * prints the figures.
 */
import type { ChildProcess } from 'node:child_process'
import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { userEnv } from '../../vite-plugin/test/user-process.ts'
import { TEST_WORKER_FLAGS } from '../../vite-plugin/vitest.ts'
import { listeningPort } from './listening.ts'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'

export interface Timed<T> {
  readonly ms: number
  readonly value: T
}

export async function timed<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const start = performance.now()
  const value = await fn()
  return { ms: Math.round(performance.now() - start), value }
}

/** Runs a command in `cwd`; rejects with its output when it exits non-zero. */
export async function sh(cwd: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd, env: userEnv(env), maxBuffer: 64 * 1024 * 1024 })
    return stdout + stderr
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string }
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
  }
}

export interface Packed {
  readonly tarball: string
  readonly bytes: number
  readonly files: number
  /** The paths inside the tarball, relative to the package root. */
  readonly paths: readonly string[]
}

/**
 * `npm pack` of this repo into a fresh temporary folder. `--ignore-scripts`: dist/ is already built
 * (vitest's global setup, or `npm run build` before the bench), and `prepare` would empty it while
 * other test files use it.
 */
export async function packVela(): Promise<Packed> {
  const dest = mkdtempSync(join(tmpdir(), 'vela-pack-'))
  const out = await run(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  })
  const [info] = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as Array<{
    filename: string
    size: number
    entryCount: number
    files: { path: string }[]
  }>
  return {
    tarball: join(dest, info!.filename),
    bytes: info!.size,
    files: info!.entryCount,
    paths: info!.files.map((f) => f.path),
  }
}

/**
 * `vela new <name>` as a user runs it from the package (`npm exec --package=<tarball>`), in
 * `parent`. `env` adds npm settings (the suites pass `npm_config_prefer_offline`).
 */
export async function velaNew(
  parent: string,
  name: string,
  tarball: string,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  await sh(parent, NPM, ['exec', '--yes', `--package=${tarball}`, '--', 'vela', 'new', name], env)
  return join(parent, name)
}

/** Installs the tarball (and the app's other dependencies) into the app; `env` as for velaNew. */
export const installTarball = (app: string, tarball: string, env: NodeJS.ProcessEnv = {}) =>
  sh(app, NPM, ['install', '--no-fund', '--no-audit', tarball], env)

/** Runs one of the app's local binaries (`tsc`, `vitest`, `vite`). */
export const npx = (app: string, bin: string, args: string[], env?: NodeJS.ProcessEnv) =>
  sh(app, join(app, 'node_modules/.bin', bin), args, env)

export function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((sum, f) => {
    const s = statSync(join(dir, f))
    return s.isFile() ? sum + s.size : sum
  }, 0)
}

/** A copy of the app's `dist/` alone, in a new folder with nothing else. */
export function copyDist(app: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vela-dist-'))
  cpSync(join(app, 'dist'), dir, { recursive: true })
  return dir
}

export interface Started {
  readonly url: string
  readonly proc: ChildProcess
  output(): string
  stop(): Promise<void>
}

/**
 * Starts a long-running command on a port of the system's choosing (`PORT=0`) and resolves once it
 * says where it listens and `probe` (a path) answers there, with the time from spawn to that first
 * answer. The child binds the port itself, so no other process can take it in between. A built
 * server (`cmd` is node) runs with V8 compiling WebAssembly by Liftoff only (TEST_WORKER_FLAGS):
 * the embedded database starts with ~3 s of CPU less, and nothing a test observes changes.
 */
export async function startAndProbe(
  cwd: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  probe: string,
  timeoutMs = 300_000,
): Promise<Timed<Started>> {
  let out = ''
  const start = performance.now()
  const argv = cmd === process.execPath ? [...TEST_WORKER_FLAGS, ...args] : args
  const proc = spawn(cmd, argv, { cwd, env: userEnv({ ...env, PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] })
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
    await exited
  }
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(`${cmd} ${args.join(' ')} exited ${proc.exitCode} before answering:\n${out}`)
    if (performance.now() - start > timeoutMs) {
      await stop()
      throw new Error(`${cmd} ${args.join(' ')} did not answer ${probe} within ${timeoutMs} ms:\n${out}`)
    }
    const port = listeningPort(out)
    const url = `http://127.0.0.1:${port}`
    const ok =
      port !== undefined &&
      (await fetch(url + probe).then(
        (r) => r.status < 500,
        () => false,
      ))
    if (ok) return { ms: Math.round(performance.now() - start), value: { url, proc, output: () => out, stop } }
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Polls `url` until `accept(body)` holds; resolves with the time it took. */
export async function until(url: string, accept: (body: string) => boolean, timeoutMs = 30_000): Promise<number> {
  const start = performance.now()
  for (;;) {
    const body = await fetch(url).then(
      (r) => r.text(),
      () => '',
    )
    if (accept(body)) return Math.round(performance.now() - start)
    if (performance.now() - start > timeoutMs)
      throw new Error(`${url} never answered as expected; last body: ${body.slice(0, 500)}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}
