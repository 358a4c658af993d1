/**
 * `npm run bench -- scale` (on request: needs PostgreSQL, Redis and nginx): what more processes
 * buy. The built playground (released as the cluster suite does, test/support/built-playground.ts)
 * on a fresh PostgreSQL database with Redis, measured in one run as each setup below: requests per
 * second, and CPU µs per request of the server processes (utime + stime from /proc, every process
 * of each instance's tree, so workers count) and of nginx (master and workers).
 *
 * Setups (a line each in `SETUPS`, compared in pairs in `RATIOS`): one process and two workers
 * under one port (VELA_WORKERS=2), loaded directly; one instance and three instances behind nginx
 * (deploy/nginx.conf, access log off), the load going through nginx in both, so that ratio is the
 * instances' alone.
 *
 * Rounds are interleaved (every setup started afresh each round, warmed up 2 s per server process)
 * and medians compared. The load generator (wrk -t1, else autocannon) runs on the same machine as
 * the servers and nginx: on a machine with few cores the processes compete for them, which bounds
 * what more instances can add.
 *
 *   BENCH_ROUNDS (default 2), BENCH_SECONDS per target (default 4), BENCH_CONNECTIONS (default 50)
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Instance, Release } from '../test/support/built-playground.ts'
import { releasePlayground, startInstance } from '../test/support/built-playground.ts'
import type { Nginx } from '../test/support/nginx.ts'
import { nginxAvailable, startNginx } from '../test/support/nginx.ts'
import { REDIS_URL, freshPostgresDatabase, serviceAvailable } from '../test/support/services.ts'
import type { LoadTarget } from './load.ts'
import { check, cpuMicrosOf, hasWrk, median, runLoad } from './load.ts'

interface Setup {
  readonly name: string
  readonly instances: number
  /** Through nginx (deploy/nginx.conf) or straight to the one instance's port. */
  readonly nginx: boolean
  readonly env?: Record<string, string>
}

const SETUPS: readonly Setup[] = [
  { name: '1 process', instances: 1, nginx: false },
  { name: '2 workers (VELA_WORKERS=2)', instances: 1, nginx: false, env: { VELA_WORKERS: '2' } },
  { name: '1 instance behind nginx', instances: 1, nginx: true },
  { name: '3 instances behind nginx', instances: 3, nginx: true },
]
/** Server processes of a setup: instances × workers. */
const processes = (s: Setup) => s.instances * (Number(s.env?.VELA_WORKERS) || 1)

/** [more, fewer]: the ratio printed for each pair. */
const RATIOS: readonly (readonly [string, string])[] = [
  ['2 workers (VELA_WORKERS=2)', '1 process'],
  ['3 instances behind nginx', '1 instance behind nginx'],
]

const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const seconds = Number(process.env.BENCH_SECONDS ?? 4)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** The process and its descendants (a cluster primary's workers, nginx's workers). */
function processTree(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`
  const children = existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : []
  return [pid, ...children.flatMap(processTree)]
}
const treeCpuMicros = (pid: number) => processTree(pid).reduce((sum, p) => sum + cpuMicrosOf(p), 0)

interface Running {
  readonly port: number
  serverCpu(): number
  nginxCpu(): number
  stop(): Promise<void>
}

async function start(setup: Setup, release: Release, env: Record<string, string>): Promise<Running> {
  const instances: Instance[] = []
  let nginx: Nginx | undefined
  const stop = async () => {
    await nginx?.stop()
    await Promise.all(instances.map((i) => i.stop()))
  }
  try {
    for (let i = 0; i < setup.instances; i++) instances.push(await startInstance(release, { ...env, ...setup.env }))
    await Promise.all(instances.map((i) => i.listening()))
    if (setup.nginx)
      nginx = await startNginx(
        instances.map((i) => i.port),
        { accessLog: false },
      )
  } catch (err) {
    await stop()
    throw err
  }
  return {
    port: nginx?.port ?? instances[0]!.port,
    serverCpu: () => instances.reduce((sum, i) => sum + treeCpuMicros(i.pid), 0),
    nginxCpu: () => (nginx ? treeCpuMicros(nginx.pid) : 0),
    stop,
  }
}

type Figures = Record<string, Record<string, { rps: number[]; serverUs: number[]; nginxUs: number[] }>>

async function main() {
  if (!(await serviceAvailable('postgres')) || !(await serviceAvailable('redis')) || !nginxAvailable()) {
    console.error('scale: needs PostgreSQL (127.0.0.1:5432), Redis (127.0.0.1:6379) and nginx (/usr/sbin/nginx)')
    process.exit(1)
  }
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build-package.mjs', import.meta.url))], {
    stdio: 'inherit',
    cwd: repoRoot,
  })
  const release = releasePlayground('scale')
  const db = await freshPostgresDatabase('vela_scale')
  try {
    const env = {
      DATABASE_URL: db.url,
      VELA_SESSION_SECRET: randomBytes(32).toString('base64url'),
      REDIS_URL,
      VELA_TRUST_PROXY: '127.0.0.1',
    }
    // One product to read, created through a first instance (which also migrates the database).
    const seed = await start(SETUPS[0]!, release, env)
    const created = await fetch(`http://127.0.0.1:${seed.port}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Scale', price: 1 }),
    })
    const { id } = (await created.json()) as { id: number }
    await seed.stop()
    const targets: LoadTarget[] = [
      { name: 'GET /heartbeat', method: 'GET', path: '/heartbeat', expectStatus: 200 },
      { name: 'GET /api/products/:id (PostgreSQL)', method: 'GET', path: `/api/products/${id}`, expectStatus: 200 },
    ]
    console.log(
      `scale: ${rounds} rounds × ${seconds} s per target, ${connections} connections, ${hasWrk ? 'wrk -t1' : 'autocannon'}, ${availableParallelism()} cores shared by the load generator, nginx and the servers`,
    )
    const figures: Figures = {}
    for (let r = 0; r < rounds; r++) {
      for (const setup of SETUPS) {
        const running = await start(setup, release, env)
        try {
          for (const t of targets) {
            await check(running.port, t)
            // Warm-up, 2 s per server process so each gets as many requests as a single one: the
            // JIT settles and the pools fill everywhere before measuring.
            await runLoad(running.port, t, 2 * processes(setup), connections)
            const [server, nginx] = [running.serverCpu(), running.nginxCpu()]
            const res = await runLoad(running.port, t, seconds, connections)
            if (res.errors > 0)
              throw new Error(`${setup.name} ${t.name}: ${res.errors} responses with an unexpected status`)
            const f = ((figures[t.name] ??= {})[setup.name] ??= { rps: [], serverUs: [], nginxUs: [] })
            f.rps.push(res.rps)
            f.serverUs.push((running.serverCpu() - server) / res.requests)
            f.nginxUs.push((running.nginxCpu() - nginx) / res.requests)
          }
        } finally {
          await running.stop()
        }
      }
      console.log(`  round ${r + 1}/${rounds} done`)
    }
    report(figures)
  } finally {
    await db.drop()
    release.remove()
  }
}

function report(figures: Figures) {
  console.log('\n| target | setup | req/s | server CPU µs/req | nginx CPU µs/req |\n|---|---|---|---|---|')
  for (const [target, bySetup] of Object.entries(figures)) {
    for (const [setup, f] of Object.entries(bySetup)) {
      console.log(
        `| ${target} | ${setup} | ${median(f.rps).toFixed(0)} | ${median(f.serverUs).toFixed(0)} | ${f.nginxUs.some((x) => x > 0) ? median(f.nginxUs).toFixed(0) : '–'} |`,
      )
    }
  }
  console.log('\n| target | ratio | req/s | server CPU µs/req |\n|---|---|---|---|')
  for (const [target, bySetup] of Object.entries(figures)) {
    for (const [more, fewer] of RATIOS) {
      const a = bySetup[more]
      const b = bySetup[fewer]
      if (!a || !b) continue
      console.log(
        `| ${target} | ${more} / ${fewer} | ${(median(a.rps) / median(b.rps)).toFixed(2)} | ${(median(a.serverUs) / median(b.serverUs)).toFixed(2)} |`,
      )
    }
  }
}

await main()
