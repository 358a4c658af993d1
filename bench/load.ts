/**
 * Load generation and server processes for the benchmarks: every measurement is a fresh server
 * process, driven by wrk (or autocannon when wrk is not installed) on loopback.
 */
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface LoadTarget {
  name: string
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** The status every response must have, checked before and during the load. */
  expectStatus: number
  /** Only these servers serve the route (default: every server of the run). */
  servers?: readonly string[]
}

export interface LoadResult {
  rps: number
  /** Requests completed during the run. */
  requests: number
  /** Responses with another status than expected (wrk counts non-2xx/3xx). */
  errors: number
}

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined

/** What every bench process runs under: an app in production. */
export const PRODUCTION_ENV = { NODE_ENV: 'production', VELA_ENV: 'prod' } as const

/**
 * V8 made deterministic for counting instructions under callgrind: it compiles and collects garbage
 * on the main thread only, with fixed seeds, so two processes run the same instructions, give or
 * take a few million (startup differs in I/O and timing).
 */
export const PREDICTABLE = ['--predictable', '--random-seed=42', '--hash-seed=42']

/**
 * For a process counted over windows of requests (bench/count-sockets.ts, bench/path.ts), garbage
 * collection is also scheduled by allocation alone (`--predictable-gc-schedule`: fixed young
 * generation and heap growth, no memory reducer) and done in one pause (`--no-incremental-marking`).
 * Without them, on Node 24, V8's heuristics read the clock: under callgrind, where a request takes
 * some 50 times longer, they started incremental marking again and again, and one 5,000-request
 * window of the same server counted 47,000 instructions per request while the next counted 91,000.
 * With them, four windows in a row agree within 5 %. The in-process path count (bench/path.ts)
 * counts windows the same way.
 */
export const PREDICTABLE_GC = [...PREDICTABLE, '--predictable-gc-schedule', '--no-incremental-marking']

/** The instructions of the newest dump callgrind wrote into `dir` (files `out.<n>`, `callgrind_control -d`). */
export function lastCallgrindDump(dir: string): number {
  const dumps = readdirSync(dir).filter((f) => /^out\.\d+$/.test(f))
  const last = dumps.sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).pop()
  const total = last && /^(?:summary|totals):\s*(\d+)/m.exec(readFileSync(join(dir, last), 'utf8'))
  if (!total) throw new Error(`no callgrind dump in ${dir}`)
  return Number(total[1])
}

/** The members of `all` that the environment variable `variable` lists (a comma list); all when it is unset. */
export function picked<T extends string>(all: readonly T[], variable: string): T[] {
  const listed = process.env[variable]?.split(',')
  return all.filter((item) => !listed || listed.includes(item))
}

const tmp = mkdtempSync(join(tmpdir(), 'vela-bench-'))
const built: Record<string, Promise<string>> = {}

function luaFor(t: LoadTarget): string | undefined {
  if (t.method === 'GET' && !t.headers) return undefined
  const file = join(tmp, `${t.name.replace(/\W+/g, '_')}.lua`)
  const lines = [`wrk.method = ${JSON.stringify(t.method)}`]
  if (t.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(t.body)}`)
  for (const [k, v] of Object.entries(t.headers ?? {}))
    lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

/**
 * Drives `t` for `seconds` with `connections` connections: as fast as the server answers (wrk,
 * or autocannon without it), or at `rate` requests per second in all (autocannon's `-R`), so
 * that servers of different speeds are measured under the same load.
 */
export async function runLoad(
  port: number,
  t: LoadTarget,
  seconds: number,
  connections = 50,
  rate?: number,
): Promise<LoadResult> {
  const url = `http://127.0.0.1:${port}${t.path}`
  if (hasWrk && !rate) {
    const lua = luaFor(t)
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, ...(lua ? ['-s', lua] : []), url]
    const out = await run('wrk', args)
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN)
    const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN)
    return { rps, requests, errors }
  }
  const args = ['-j', '-c', String(connections), '-d', String(seconds), '-m', t.method]
  if (rate) args.push('-R', String(rate))
  for (const [k, v] of Object.entries(t.headers ?? {})) args.push('-H', `${k}=${v}`)
  if (t.body !== undefined) args.push('-b', t.body)
  const res = JSON.parse(await run(AUTOCANNON, [...args, url])) as {
    requests: { average: number; total: number }
    non2xx: number
  }
  return { rps: res.requests.average, requests: res.requests.total, errors: res.non2xx }
}

const AUTOCANNON = fileURLToPath(new URL('../node_modules/.bin/autocannon', import.meta.url))

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    p.stdout.on('data', (d) => (out += d))
    p.on('error', reject)
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}`))))
  })
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

/**
 * `start` on a port found free, and again on another (5 tries in all) while `taken(error)` says it
 * failed because another process took that port before `start` bound it: for programs that cannot
 * bind port 0 themselves and report where (nginx, PostgreSQL, Prometheus).
 *
 * @example
 * const nginx = await onFreePort((port) => launch(port), (e) => /Address already in use/.test(String(e)))
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  taken: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort())
    } catch (e) {
      if (attempt === 5 || !taken(e)) throw e
    }
  }
}

export async function waitForPort(port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before listening`)
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1')
      s.once('connect', () => (s.destroy(), resolve(true)))
      s.once('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server did not listen on ${port} within ${timeoutMs} ms`)
}

export interface ServerProcess {
  port: number
  /** CPU time (user + system) the server process has used so far, in µs; NaN where /proc is missing. */
  cpuMicros(): number
  stop(): Promise<void>
}

// utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
export function cpuMicrosOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return NaN
  }
}

/**
 * Bundles a TypeScript server the way a production build would (esbuild, dependencies left as
 * imports), so no server pays for a development loader: tsx injects a name-keeping helper into
 * every closure of the code it transforms, which the packages from node_modules never pay.
 */
export async function bundleServer(file: string): Promise<string> {
  const { build } = await import('esbuild')
  // Inside the repo, so the bundle's imports resolve from node_modules.
  const outfile = fileURLToPath(
    new URL(`../node_modules/.cache/vela-bench/${file.replace(/\W+/g, '_')}.mjs`, import.meta.url),
  )
  await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.15',
    packages: 'external',
    outfile,
    logLevel: 'error',
  })
  return outfile
}

/** `file` bundled by `bundleServer`, once per bench process. */
export function bundled(file: string): Promise<string> {
  return (built[file] ??= bundleServer(file))
}

/** Kills `child` (SIGKILL) and resolves once it has exited. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

/** Starts `file` (TypeScript, bundled once) as a fresh process with PORT set. */
export async function startServer(file: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, [await bundled(file)], {
    env: { ...process.env, ...env, PORT: String(port), ...PRODUCTION_ENV },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitForPort(port, child)
  return {
    port,
    cpuMicros: () => cpuMicrosOf(child.pid!),
    stop: () => killed(child),
  }
}

/** Sends one request and checks its status, so a broken server cannot post a fast number. */
export async function check(port: number, t: LoadTarget): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${t.path}`, { method: t.method, headers: t.headers, body: t.body })
  await res.arrayBuffer()
  if (res.status !== t.expectStatus) throw new Error(`${t.name}: expected ${t.expectStatus}, got ${res.status}`)
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export interface RoundsOptions {
  readonly servers: readonly string[]
  readonly targets: readonly LoadTarget[]
  readonly rounds: number
  readonly seconds: number
  readonly connections: number
  /** The TypeScript file of a server. */
  readonly fileOf: (server: string) => string
  /** Environment of a server's process. */
  readonly envOf?: (server: string) => Record<string, string>
  /** Requests per second in all, the same for every server (see `runLoad`); unset: as fast as each answers. */
  readonly rate?: number
}

export interface RoundResults {
  /** req/s per target and server, one value per round. */
  rps: Record<string, Record<string, number[]>>
  /** Server CPU time per request (µs), same shape: steadier than req/s on a busy machine. */
  cpu: Record<string, Record<string, number[]>>
}

/**
 * Interleaved rounds: every round starts each server as a fresh process, warms each route up for
 * a second, then measures it: requests per second, and the server's CPU time per request.
 */
export async function measureRounds(o: RoundsOptions): Promise<RoundResults> {
  const results: Record<string, Record<string, number[]>> = {}
  const cpu: Record<string, Record<string, number[]>> = {}
  for (let r = 0; r < o.rounds; r++) {
    for (const server of o.servers) {
      const proc = await startServer(o.fileOf(server), o.envOf?.(server))
      try {
        for (const t of o.targets) {
          if (t.servers && !t.servers.includes(server)) continue
          await check(proc.port, t)
          await runLoad(proc.port, t, 2, o.connections, o.rate) // warm-up: the JIT settles before measuring
          const before = proc.cpuMicros()
          const res = await runLoad(proc.port, t, o.seconds, o.connections, o.rate)
          const used = proc.cpuMicros() - before
          if (res.errors > 0) throw new Error(`${server} ${t.name}: ${res.errors} responses with an unexpected status`)
          ;((results[t.name] ??= {})[server] ??= []).push(res.rps)
          ;((cpu[t.name] ??= {})[server] ??= []).push(used / res.requests)
        }
      } finally {
        await proc.stop()
      }
    }
    process.stdout.write(`  round ${r + 1}/${o.rounds} done\n`)
  }
  return { rps: results, cpu }
}
