/**
 * `npm run bench -- dashboard`: the cost of the development dashboard's recording. The fixture
 * app (vite-plugin/test/fixtures/basic) under the dev server, once with the dashboard and once
 * with `dashboard: false`, each its own process, rounds interleaved; wrk drives GET /hello (a
 * JSON route) and GET /missing (a 404). Reports requests per second and the server's CPU µs per
 * request, and the difference: what recording adds to each request.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per route (default 3), BENCH_CONNECTIONS (default 50)
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LoadTarget } from './load.ts'
import { check, cpuMicrosOf, median, runLoad } from './load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const repo = fileURLToPath(new URL('..', import.meta.url))
const targets: LoadTarget[] = [
  { name: 'GET /hello', method: 'GET', path: '/hello', expectStatus: 200 },
  { name: 'GET /missing (404)', method: 'GET', path: '/missing', expectStatus: 404 },
]

/** The child: a dev server on the fixture copy in `root`, with or without the dashboard. */
async function serveChild(root: string, dashboard: boolean): Promise<void> {
  const { startDevServer } = await import('../vite-plugin/dev/dev-server.ts')
  const { default: vela } = await import('../vite-plugin/index.ts')
  const server = await startDevServer({
    root,
    port: 0,
    plugins: [vela({ dev: { log: () => {}, ...(dashboard ? {} : { dashboard: false }) } })],
  })
  console.log(`PORT ${new URL(server.url).port}`)
}

interface Child {
  port: number
  cpu(): number
  stop(): void
}

function startChild(root: string, dashboard: boolean): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', root, dashboard ? 'on' : 'off'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, VELA_ENV: 'dev' } },
  )
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      const port = /PORT (\d+)/.exec(out)?.[1]
      if (port) resolve({ port: Number(port), cpu: () => cpuMicrosOf(child.pid!), stop: () => child.kill('SIGKILL') })
    })
    child.once('exit', (code) => reject(new Error(`the dev server exited (${code}) before listening`)))
  })
}

async function bench(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'vela-bench-dashboard-'))
  cpSync(join(repo, 'vite-plugin/test/fixtures/basic'), root, { recursive: true })
  mkdirSync(join(root, 'node_modules'))
  symlinkSync(repo, join(root, 'node_modules/vela'), 'dir')
  const modes = ['off', 'on'] as const
  const rps: Record<string, Record<string, number[]>> = {}
  const cpu: Record<string, Record<string, number[]>> = {}
  console.log(
    `dashboard: ${rounds} rounds × ${seconds}s per route, ${connections} connections, dev server with the dashboard on and off`,
  )
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 ? [...modes].reverse() : modes) {
        const child = await startChild(root, mode === 'on')
        try {
          for (const t of targets) {
            await check(child.port, t)
            await runLoad(child.port, t, 1, connections) // warm-up
            const before = child.cpu()
            const r = await runLoad(child.port, t, seconds, connections)
            ;((rps[t.name] ??= {})[mode] ??= []).push(r.rps)
            ;((cpu[t.name] ??= {})[mode] ??= []).push((child.cpu() - before) / r.requests)
          }
        } finally {
          child.stop()
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  console.table(
    targets.map((t) => {
      const [offRps, onRps, offCpu, onCpu] = [
        median(rps[t.name]!.off!),
        median(rps[t.name]!.on!),
        median(cpu[t.name]!.off!),
        median(cpu[t.name]!.on!),
      ]
      return {
        route: t.name,
        'req/s off': Math.round(offRps),
        'req/s on': Math.round(onRps),
        'CPU µs off': +offCpu.toFixed(1),
        'CPU µs on': +onCpu.toFixed(1),
        'added µs/request': +(onCpu - offCpu).toFixed(1),
      }
    }),
  )
}

if (process.argv[2] === 'serve') await serveChild(process.argv[3]!, process.argv[4] === 'on')
else if (import.meta.url === `file://${process.argv[1]}`) await bench()
