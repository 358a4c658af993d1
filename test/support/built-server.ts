/**
 * A built server (`node server/index.mjs` in a build's output folder) run as a child process, as
 * an operator runs it: its output collected, lines waited for (bounded), its pid and exit known.
 * Used by the worker test (test/cluster/workers.test.ts). Plain-connection requests too: `getFresh`
 * opens a new connection per request, so node's cluster hands each to the next worker.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import http from 'node:http'
import { TEST_WORKER_FLAGS } from '../../vite-plugin/vitest.ts'

export interface ServerProcess {
  readonly proc: ChildProcess
  output(): string
  /** The first match of `pattern` in the output; rejects after `ms`, or once the process exited without it. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export function runBuiltServer(dir: string, env: NodeJS.ProcessEnv): ServerProcess {
  const proc = spawn(process.execPath, [...TEST_WORKER_FLAGS, 'server/index.mjs'], {
    cwd: dir,
    env: { ...process.env, VELA_ENV: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const checks = new Set<() => void>()
  const onData = (d: Buffer) => {
    out += d
    for (const check of checks) check()
  }
  proc.stdout!.on('data', onData)
  proc.stderr!.on('data', onData)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('close', (code, signal) => resolve({ code, signal })),
  )
  const waitFor = (pattern: RegExp, ms = 120_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const fail = (why: string) => {
        finish()
        reject(new Error(`${why} waiting for ${pattern}; output:\n${out}`))
      }
      const timer = setTimeout(() => fail(`${ms} ms passed`), ms)
      const finish = () => (clearTimeout(timer), checks.delete(check))
      const check = () => {
        const m = pattern.exec(out)
        if (m) finish(), resolve(m)
      }
      checks.add(check)
      check()
      void exited.then(() =>
        setImmediate(() => checks.has(check) && (check(), checks.has(check) && fail('the server exited'))),
      )
    })
  return { proc, output: () => out, waitFor, exited }
}

export interface FreshAnswer {
  readonly status: number
  readonly body: string
}

/** GET on a new connection (no keep-alive); rejects on a socket error or after `timeoutMs`. */
export function getFresh(port: number, path: string, timeoutMs = 10_000): Promise<FreshAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', reject)
  })
}

/** The sum of every series of `name` (e.g. `http_server_request_duration_seconds_count`) in a Prometheus exposition. */
export function sumSeries(exposition: string, name: string): number {
  let sum = 0
  for (const line of exposition.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}
