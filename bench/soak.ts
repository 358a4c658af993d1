/**
 * `npm run soak` (a benchmark, not a test): the built playground on PostgreSQL under mixed
 * keep-alive load for SOAK_SECONDS (default 60), then a SIGTERM while the load still runs.
 *
 * Steps: compile the package; copy the playground into .scratch/ (inside the repo, so `vela`
 * resolves to it) and `vela release` it; a fresh database on the shared server
 * (test/support/services.ts), dropped at the end; `node dist/server/index.mjs` on a free port
 * (VELA_SESSION_SECRET set, so it runs as prod); SOAK_CONNECTIONS (default 20) clients
 * (soak-client.ts) sending GET /heartbeat, GET /api/products/:id, POST /api/products and
 * GET /api/products (weights 38/45/15/2; the list is every row, unpaged); SIGTERM at the end of the window; the clients run on
 * until the server refuses them or exits.
 *
 * Prints: requests, answers by route and status, failures by kind, p50/p99 latency, the server's
 * RSS at start, middle and end, rows in `products` against the 201s received, and the requests
 * lost at shutdown (written on an open connection, never answered), with the exit code and the
 * server's shutdown lines. Loopback only; bounded by SOAK_SECONDS and SOAK_MAX_REQUESTS
 * (default 5 000 000).
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { freshPostgresDatabase, serviceAvailable } from '../test/support/services.ts'
import { freePort } from './load.ts'
import { percentile, startClients, type Route } from './soak-client.ts'

const seconds = Number(process.env.SOAK_SECONDS) || 60
const connections = Number(process.env.SOAK_CONNECTIONS) || 20
const maxRequests = Number(process.env.SOAK_MAX_REQUESTS) || 5_000_000
const repoRoot = fileURLToPath(new URL('..', import.meta.url))

const routes: Route[] = [
  { name: 'GET /heartbeat', weight: 38, method: 'GET', path: () => '/heartbeat' },
  {
    name: 'GET /api/products/:id',
    weight: 45,
    method: 'GET',
    path: (ids) => `/api/products/${ids.length ? ids[Math.floor(Math.random() * ids.length)] : 1}`,
  },
  {
    name: 'POST /api/products',
    weight: 15,
    method: 'POST',
    path: () => '/api/products',
    body: (n) => JSON.stringify({ name: `soak ${n} ${randomBytes(4).toString('hex')}`, price: n % 10_000 }),
  },
  // Every row, unpaged: its cost grows with the table, so it stays a small share.
  { name: 'GET /api/products', weight: 2, method: 'GET', path: () => '/api/products' },
]

const rssMiB = (pid: number) => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
  return `${(kb / 1024).toFixed(0)} MiB`
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

if (!(await serviceAvailable('postgres'))) {
  console.error('soak: needs PostgreSQL (VELA_TEST_POSTGRES_URL or 127.0.0.1:5432)')
  process.exit(1)
}
execFileSync(process.execPath, [join(repoRoot, 'scripts/build-package.mjs')], { stdio: 'inherit' })
const work = join(repoRoot, '.scratch', `soak-${randomBytes(4).toString('hex')}`)
const app = join(work, 'playground')
mkdirSync(work, { recursive: true })
cpSync(join(repoRoot, 'playground'), app, {
  recursive: true,
  filter: (src) => !/[/\\](\.data|dist|node_modules)$/.test(src),
})
const db = await freshPostgresDatabase('vela_soak')
try {
  try {
    execFileSync(process.execPath, [join(repoRoot, 'vite-plugin/bin.mjs'), 'release', '--root', app], { stdio: 'pipe' })
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`vela release failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
  const port = await freePort()
  const server = spawn(process.execPath, ['dist/server/index.mjs'], {
    cwd: app,
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(await freePort()),
      DATABASE_URL: db.url,
      VELA_SESSION_SECRET: randomBytes(32).toString('base64url'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout.on('data', (d) => (output += d))
  server.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => server.once('close', (code) => resolve(code)))
  for (const until = Date.now() + 60_000; !output.includes('listening on'); await sleep(50)) {
    if (server.exitCode !== null || Date.now() > until) throw new Error(`the built server did not start:\n${output}`)
  }
  const startLines = output.length
  // A few products first, so GET /api/products/:id finds one from the start.
  const seeded: number[] = []
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `seed ${i}`, price: i }),
    })
    seeded.push(((await res.json()) as { id: number }).id)
  }

  const load = startClients(port, connections, routes, maxRequests, seeded)
  await sleep(2000)
  const rss = { start: rssMiB(server.pid!), middle: '', end: '' }
  await sleep((seconds * 1000) / 2 - 2000)
  rss.middle = rssMiB(server.pid!)
  await sleep((seconds * 1000) / 2)
  rss.end = rssMiB(server.pid!)
  const before = { requests: load.stats.requests, lost: load.stats.lost.length }
  const termAt = performance.now()
  server.kill('SIGTERM')
  const code = await exited
  const exitMs = Math.round(performance.now() - termAt)
  await load.stop()
  const s = load.stats

  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  const rows = Number((await client.query('select count(*)::int as n from products')).rows[0].n)
  await client.end()

  const all = [...s.latencies.values()].flat()
  const lostAtShutdown = s.lost.length - before.lost
  const lostKinds = new Map<string, number>()
  for (const l of s.lost.slice(before.lost))
    lostKinds.set(`${l.route} ${l.error}`, (lostKinds.get(`${l.route} ${l.error}`) ?? 0) + 1)
  const table: [string, string][] = [
    ['duration, connections', `${seconds} s, ${connections} keep-alive clients`],
    ['requests', `${s.requests} (${Math.round(before.requests / seconds)}/s before the SIGTERM)`],
    [
      'answered',
      [...s.answered]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('; '),
    ],
    [
      'not answered',
      [...s.failed]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('; ') || 'none',
    ],
    ['latency p50 / p99, all', `${percentile(all, 50).toFixed(1)} ms / ${percentile(all, 99).toFixed(1)} ms`],
    ...[...s.latencies].map(([route, xs]): [string, string] => [
      `latency p50 / p99, ${route}`,
      `${percentile(xs, 50).toFixed(1)} ms / ${percentile(xs, 99).toFixed(1)} ms`,
    ]),
    ['server RSS start / middle / end', `${rss.start} / ${rss.middle} / ${rss.end}`],
    [
      'rows in products vs 201s',
      `${rows - seeded.length} rows, ${s.created201} 201s${rows - seeded.length === s.created201 ? '' : ` (${rows - seeded.length - s.created201} written without a 201 received)`}`,
    ],
    [
      'lost at shutdown (sent, never answered)',
      `${lostAtShutdown}${lostKinds.size ? ` (${[...lostKinds].map(([k, n]) => `${k} ×${n}`).join(', ')})` : ''}`,
    ],
    ['lost before the SIGTERM', String(before.lost)],
    ['SIGTERM → exit', `${exitMs} ms, exit code ${code}`],
  ]
  console.log(`\nthe server's output after its start line:\n${output.slice(startLines).trim()}\n`)
  console.log('| soak | figure |\n|---|---|')
  for (const [k, v] of table) console.log(`| ${k} | ${v} |`)
} finally {
  await db.drop()
  rmSync(work, { recursive: true, force: true })
}
