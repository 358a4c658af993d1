/**
 * The playground as it is deployed: released (`vela release`) into a copy under .scratch/ (inside
 * the repo, so `vela` resolves to it), then `node dist/server/index.mjs` as separate processes,
 * the instances of one deployment. For the cluster suite and `npm run bench -- scale`; the package
 * must be compiled to dist/ first (vitest's global setup does it, the benches run the build).
 *
 * An instance gets the caller's environment without vitest's variables (playground.ts), `PORT=0`
 * and `METRICS_PORT=0` (the ports the system picks, read back from its start lines once it is
 * listening), and what the caller adds (DATABASE_URL, VELA_SESSION_SECRET, REDIS_URL…).
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_WORKER_FLAGS } from '../../vite-plugin/vitest.ts'
import { PLAYGROUND, VELA_BIN, playgroundPorts, userEnvironment } from './playground.ts'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface Release {
  /** The released app folder (its dist/server/index.mjs is the server). */
  readonly dir: string
  remove(): void
}

/** Copies the playground into .scratch/<label>-<random>/ and releases it there. */
export function releasePlayground(label: string): Release {
  const work = join(repoRoot, '.scratch', `${label}-${randomBytes(4).toString('hex')}`)
  const dir = join(work, 'playground')
  mkdirSync(work, { recursive: true })
  cpSync(PLAYGROUND, dir, { recursive: true, filter: (src) => !/[/\\](\.data|dist|node_modules)$/.test(src) })
  try {
    execFileSync(process.execPath, [VELA_BIN, 'release', '--root', dir], { stdio: 'pipe' })
  } catch (e) {
    rmSync(work, { recursive: true, force: true })
    const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`vela release failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
  return { dir, remove: () => rmSync(work, { recursive: true, force: true }) }
}

export interface Instance {
  /** The port it listens on; known once `listening()` has resolved. */
  readonly port: number
  readonly url: string
  readonly metricsUrl: string
  readonly pid: number
  /** Everything the process printed so far (stdout and stderr). */
  output(): string
  /** Resolves once it prints its start lines (metrics, `listening on`); rejects if it exits first or within `timeoutMs` does not. */
  listening(timeoutMs?: number): Promise<void>
  /** Resolves when the process has exited, with its exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
  /** SIGTERM (the graceful shutdown), SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Starts one instance of the released app; call `listening()` to wait for it. */
export async function startInstance(release: Release, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [...TEST_WORKER_FLAGS, 'dist/server/index.mjs'], {
    cwd: release.dir,
    env: { ...userEnvironment(), PORT: '0', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const done = () => child.exitCode !== null || child.signalCode !== null
  const started = () => {
    const ports = playgroundPorts(output)
    if (!ports) throw new Error(`the built playground has not started yet:\n${output}`)
    return ports
  }
  return {
    get port() {
      return started().port
    },
    get url() {
      return `http://127.0.0.1:${started().port}`
    },
    get metricsUrl() {
      return started().metricsUrl
    },
    pid: child.pid!,
    output: () => output,
    exited,
    async listening(timeoutMs = 120_000) {
      for (const until = Date.now() + timeoutMs; !playgroundPorts(output); await sleep(25)) {
        if (done() || Date.now() > until) throw new Error(`the built playground did not start:\n${output}`)
      }
    },
    kill: (signal) => void child.kill(signal),
    async stop(graceMs = 10_000) {
      if (done()) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    },
  }
}
