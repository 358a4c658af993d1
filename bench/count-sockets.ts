/**
 * Machine instructions a server process runs per request over a real socket, counted under
 * valgrind's callgrind: a figure a busy or slow machine does not move, where CPU time per request
 * over sockets swings by a third between runs on a shared VM.
 *
 * Each server runs once, under callgrind with V8 made deterministic. Per route, one keep-alive
 * connection sends `warmup` requests one after another (the JIT settles), the counters are zeroed
 * (`callgrind_control -z`), `n` requests follow, and the counters are dumped (`callgrind_control
 * -d`). One request at a time, so every request is one wake-up of the server: what is counted is
 * the server's whole work for it (node's HTTP parser and writer, the framework, the handler), not
 * the kernel's. `callgrind_control` (through vgdb) takes the idle server's counters between two
 * requests.
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoadTarget } from './load.ts'
import {
  PREDICTABLE_GC,
  PRODUCTION_ENV,
  bundled,
  check,
  freePort,
  killed,
  lastCallgrindDump,
  waitForPort,
} from './load.ts'

export interface CountOptions {
  readonly servers: readonly string[]
  readonly targets: readonly LoadTarget[]
  /** The file of a server: TypeScript (bundled once) or an already built `.mjs` run as it is. */
  readonly fileOf: (server: string) => string
  /** The working directory of a server's process (default: this process's). */
  readonly cwdOf?: (server: string) => string
  /** Environment of a server's process. */
  readonly envOf?: (server: string) => Record<string, string>
  /** Requests counted per route (default `BENCH_N`, else 3,000). */
  readonly n?: number
  /** Requests per route before counting (default `BENCH_WARMUP`, else 8,000: fewer leave V8 still compiling). */
  readonly warmup?: number
}

/** Instructions per request, per target name and server. */
export type Counts = Record<string, Record<string, number>>

/** Counts every server on every target it serves (`target.servers`), one server process at a time. */
export async function countOverSockets(o: CountOptions): Promise<Counts> {
  const n = o.n ?? Number(process.env.BENCH_N ?? 3000)
  const warmup = o.warmup ?? Number(process.env.BENCH_WARMUP ?? 8000)
  const counts: Counts = {}
  for (const server of o.servers) {
    const counted = await underCallgrind(o.fileOf(server), o.envOf?.(server) ?? {}, o.cwdOf?.(server), server)
    try {
      for (const t of o.targets) {
        if (t.servers && !t.servers.includes(server)) continue
        await check(counted.port, t)
        const send = sender(counted.port, t)
        for (let i = 0; i < warmup; i++) await send()
        const before = await counted.command('-z', send)
        for (let i = 0; i < n; i++) await send()
        await counted.command('-d', send)
        ;(counts[t.name] ??= {})[server] = counted.lastDump() / (n + before)
      }
    } finally {
      await counted.stop()
    }
    process.stdout.write(`  ${server} counted\n`)
  }
  return counts
}

interface Counted {
  readonly port: number
  /**
   * Runs `callgrind_control <flag>` on the server. Where vgdb cannot wake the idle server, requests
   * do; resolves with the requests sent after the first of those, which the next count includes.
   */
  command(flag: '-z' | '-d', send: () => Promise<void>): Promise<number>
  /** The instructions of the last dump. */
  lastDump(): number
  stop(): Promise<void>
}

/**
 * With `BENCH_PROFILE=<folder>`, each server's dumps (one per route, in the targets' order) are kept
 * in `<folder>/<server>/` with the instruction addresses (`--dump-instr=yes`) and V8's map of its
 * compiled code (`--perf-basic-prof`, `perf.map`), for bench/callgrind-js.ts to name the JavaScript
 * functions the instructions ran in.
 */
const profileDir = process.env.BENCH_PROFILE

async function underCallgrind(
  file: string,
  env: Record<string, string>,
  cwd?: string,
  name = 'server',
): Promise<Counted> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'vela-count-'))
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${dir}/out`,
      ...(profileDir ? ['--dump-instr=yes'] : []),
      process.execPath,
      ...PREDICTABLE_GC,
      ...(profileDir ? ['--perf-basic-prof', '--interpreted-frames-native-stack'] : []),
      file.endsWith('.mjs') ? file : await bundled(file),
    ],
    {
      cwd,
      env: { ...process.env, ...env, PORT: String(port), ...PRODUCTION_ENV },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr!.on('data', (d) => (stderr += d))
  try {
    await waitForPort(port, child, 300_000)
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${stderr}`)
  }
  return {
    port,
    async command(flag, send) {
      const control = spawn('callgrind_control', [flag, String(child.pid)], { stdio: 'ignore' })
      const done = new Promise<number | null>((resolve) => control.once('exit', resolve))
      // vgdb wakes an idle server to take the command; where it cannot (no ptrace), a request does.
      let sent = 0
      for (;;) {
        const code = await Promise.race([done, new Promise<undefined>((r) => setTimeout(r, 3000, undefined))])
        if (code === 0) return Math.max(sent - 1, 0)
        if (code !== undefined) throw new Error(`callgrind_control ${flag} failed (${code})`)
        await send()
        sent++
      }
    },
    lastDump() {
      try {
        return lastCallgrindDump(dir)
      } catch (e) {
        throw new Error(`${(e as Error).message}:\n${stderr}`)
      }
    },
    stop: () =>
      killed(child).finally(() => {
        if (profileDir) {
          const kept = join(profileDir, name.replace(/[^\w.+-]+/g, '_'))
          mkdirSync(kept, { recursive: true })
          cpSync(dir, kept, { recursive: true })
          const map = `/tmp/perf-${child.pid}.map`
          if (existsSync(map)) cpSync(map, join(kept, 'perf.map'))
          rmSync(map, { force: true })
        }
        rmSync(dir, { recursive: true, force: true })
      }),
  }
}

/**
 * One request of `t` at a time over one keep-alive connection; rejects on an unexpected status.
 * A request the server reset is sent once more, on a new connection: while `callgrind_control`
 * holds the server, its clock runs on, so on a busy machine it can close the connection as idle
 * (its keep-alive timeout passed) with the next request already waiting on it.
 */
function sender(port: number, t: LoadTarget): () => Promise<void> {
  const send = sendOnce(port, t)
  return () => send().catch((err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? send() : Promise.reject(err)))
}

function sendOnce(port: number, t: LoadTarget): () => Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const body = t.body === undefined ? undefined : Buffer.from(t.body)
  const headers = { ...t.headers, ...(body ? { 'content-length': String(body.length) } : {}) }
  return () =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: t.method, path: t.path, headers, agent }, (res) => {
        res.resume()
        res.once('end', () =>
          res.statusCode === t.expectStatus
            ? resolve()
            : reject(new Error(`${t.name}: expected ${t.expectStatus}, got ${res.statusCode}`)),
        )
      })
      req.once('error', reject)
      req.end(body)
    })
}
