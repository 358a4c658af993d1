/**
 * The playground as a user runs it, for the suites that test it over HTTP: the `vela` binary's
 * `serve` (the dev server) in the app folder, on free ports, as its own process. The package is
 * compiled to dist/ by vitest's global setup. Each suite starts one server and shares it.
 *
 * The process gets the environment a developer's shell would: vitest's own variables are left
 * out (under VITEST the plugin does not boot the app, and a repo defaults to memory), so it runs
 * as `dev`, with the demo account. Embedded PGlite keeps its data in a fresh folder per server
 * (VELA_PLAYGROUND_DATA), removed at the end; `databaseUrl` runs it on PostgreSQL instead.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listeningPort } from './listening.ts'

export const PLAYGROUND = fileURLToPath(new URL('../../playground', import.meta.url))
export const VELA_BIN = fileURLToPath(new URL('../../vite-plugin/bin.mjs', import.meta.url))

export interface Playground {
  readonly base: string
  readonly port: number
  /** `http://127.0.0.1:<port>/metrics`, the Prometheus endpoint of `setupTelemetry({ prometheus })`. */
  readonly metricsUrl: string
  /** The process id of `vela serve` (the same after it re-executes itself with V8 flags). */
  readonly pid: number
  /** Everything the process printed so far (stdout and stderr). */
  output(): string
  /** SIGTERM (graceful shutdown: the app's stop hook runs), waits for the exit, removes the data. */
  stop(): Promise<void>
}

export interface PlaygroundOptions {
  /** PostgreSQL instead of embedded PGlite. */
  databaseUrl?: string
  /** An existing PGlite data folder (kept at the end); default a fresh one, removed. */
  dataDir?: string
  /** Extra environment (OTEL_EXPORTER_OTLP_ENDPOINT, LOGIN_RATE_LIMIT…). */
  env?: Record<string, string>
  /** Where to run `vela serve` from, and with which `--root`: default the app folder itself. */
  cwd?: string
  root?: string
  /** How long to wait for the start line (default 60 s). */
  startTimeoutMs?: number
}

/** The caller's environment without what vitest adds to it. */
export function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|NODE_ENV$|VELA_ENV$|DATABASE_URL$|OTEL_)/.test(key)) env[key] = value
  }
  return env
}

/**
 * Starts the playground on ports the system picks (`PORT=0`, `METRICS_PORT=0`), read back from
 * its start lines, so no other process can take them in between.
 */
export async function startPlayground(opts: PlaygroundOptions = {}): Promise<Playground> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vela-playground-'))
  const args = [VELA_BIN, 'serve', ...(opts.root ? ['--root', opts.root] : [])]
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd ?? PLAYGROUND,
    env: {
      ...userEnvironment(),
      PORT: '0',
      METRICS_PORT: '0',
      VELA_PLAYGROUND_DATA: dataDir,
      // The suites sign the demo account in more than the 10 times per 15 minutes the per-account
      // login limit allows; test/faults/brute-force.test.ts sets it back to check that limit.
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  const listening = new Promise<boolean>((resolve) => {
    const check = () => playgroundPorts(output) !== undefined && resolve(true)
    child.stdout.on('data', check)
    child.once('close', () => resolve(false))
    // Generous: a first start migrates embedded PGlite, slow on a busy machine.
    setTimeout(() => resolve(false), opts.startTimeoutMs ?? 180_000).unref()
  })
  if (!(await listening)) {
    await stop()
    throw new Error(`the playground did not start:\n${output}`)
  }
  const { port, metricsUrl } = playgroundPorts(output)!
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    metricsUrl,
    pid: child.pid!,
    output: () => output,
    stop,
  }
}

/**
 * The port and the metrics URL a playground started with `PORT=0` and `METRICS_PORT=0` printed
 * (the app's start hook prints the metrics line, then the server its `listening on` line), once
 * both are there.
 */
export function playgroundPorts(output: string): { port: number; metricsUrl: string } | undefined {
  const port = listeningPort(output)
  const metricsUrl = /^playground: metrics on (\S+)$/m.exec(output)?.[1]
  return port !== undefined && metricsUrl ? { port, metricsUrl } : undefined
}
