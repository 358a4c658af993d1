/**
 * Database-layer benchmark: Repo.get and Repo.insert through the repository against the same
 * statements on bare `pg` and bare PGlite, each behind the same node:http server (bench/dbl/server.ts).
 * Every measurement is a fresh server process; rounds interleave the four modes, and the medians
 * are compared, so machine drift hits every mode alike.
 *
 *   npx tsx bench/dbl.ts
 *   BENCH_ROUNDS (5), BENCH_SECONDS per route (3), BENCH_CONNECTIONS (32), VELA_BENCH_POSTGRES_URL
 * Targets: repo ≥ 0.93 × bare pg, repo ≥ 0.9 × bare PGlite.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { POSTGRES_URL } from '../test/support/services.ts'
import { DDL, SEED } from './dbl/fixtures.ts'
import { bundleServer } from './load.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const adminUrl = process.env.VELA_BENCH_POSTGRES_URL ?? POSTGRES_URL
const modes = ['pg', 'repo-pg', 'pglite', 'repo-pglite'] as const
type Mode = (typeof modes)[number]

const tmp = mkdtempSync(join(tmpdir(), 'vela-bench-dbl-'))
const postLua = join(tmp, 'post.lua')
writeFileSync(
  postLua,
  ['wrk.method = "POST"', 'wrk.headers["content-type"] = "application/json"', `wrk.body = ${JSON.stringify(JSON.stringify({ name: 'Widget', price: 1999, description: 'A widget' }))}`].join('\n') + '\n',
)

const targets = [
  { name: 'GET by id', path: '/products/42', lua: undefined as string | undefined },
  { name: 'insert', path: '/products', lua: postLua },
]

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

const bundled = bundleServer(fileURLToPath(new URL('./dbl/server.ts', import.meta.url)))

async function startServer(mode: Mode, dbUrl: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [await bundled], {
    env: { ...process.env, BENCH_MODE: mode, BENCH_PG_URL: dbUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d
      const m = /listening (\d+)/.exec(out)
      if (m) resolve({ port: Number(m[1]), child })
    })
    child.on('exit', (code) => reject(new Error(`${mode} server exited ${code} before listening`)))
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit')
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

function wrk(port: number, path: string, lua: string | undefined, secs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = ['-t1', `-c${connections}`, `-d${secs}s`, ...(lua ? ['-s', lua] : []), `http://127.0.0.1:${port}${path}`]
    const p = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    p.stdout.on('data', (d: Buffer) => (out += d))
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}`))
      if (/Non-2xx or 3xx responses/.test(out)) return reject(new Error(`non-2xx responses during load:\n${out}`))
      resolve(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN))
    })
  })
}

async function checkRoute(port: number, path: string, lua: string | undefined): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, lua ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Check","price":1}' } : {})
  if (res.status !== (lua ? 201 : 200)) throw new Error(`${path}: status ${res.status} ${await res.text()}`)
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

export async function benchDbl(): Promise<void> {
  if (spawnSync('wrk', ['--version']).error) throw new Error('bench/dbl.ts needs wrk on the PATH')
  const name = `vela_bench_${randomBytes(4).toString('hex')}`
  await admin(adminUrl, `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const dbUrl = url.toString()
  try {
    await admin(dbUrl, DDL)
    await admin(dbUrl, SEED)
    console.log(`dbl: ${rounds} rounds × ${seconds}s per route, ${connections} connections, wrk -t1, pool size 10`)
    const results: Record<string, Record<Mode, number[]>> = {}
    for (let r = 0; r < rounds; r++) {
      for (const mode of modes) {
        const { port, child } = await startServer(mode, dbUrl)
        try {
          for (const t of targets) {
            await checkRoute(port, t.path, t.lua)
            await wrk(port, t.path, t.lua, 1) // warm-up (JIT, pool)
            const rps = await wrk(port, t.path, t.lua, seconds)
            ;(((results[t.name] ??= {} as Record<Mode, number[]>)[mode] ??= [])).push(rps)
          }
        } finally {
          await stop(child)
        }
      }
      console.log(`  round ${r + 1}/${rounds} done`)
    }
    const rows = targets.map((t) => {
      const m = Object.fromEntries(modes.map((mode) => [mode, median(results[t.name]![mode])])) as Record<Mode, number>
      return {
        route: t.name,
        'pg req/s': Math.round(m.pg),
        'repo-pg req/s': Math.round(m['repo-pg']),
        'repo/pg': +(m['repo-pg'] / m.pg).toFixed(3),
        'pglite req/s': Math.round(m.pglite),
        'repo-pglite req/s': Math.round(m['repo-pglite']),
        'repo/pglite': +(m['repo-pglite'] / m.pglite).toFixed(3),
      }
    })
    for (const t of targets) {
      for (const mode of modes) console.log(`  ${t.name} ${mode}: ${results[t.name]![mode].map(Math.round).join(', ')}`)
    }
    console.table(rows)
    for (const row of rows) {
      const okPg = row['repo/pg'] >= 0.93
      const okLite = row['repo/pglite'] >= 0.9
      console.log(`  ${row.route}: repo/pg ${row['repo/pg']} ${okPg ? 'meets' : 'MISSES'} 0.93; repo/pglite ${row['repo/pglite']} ${okLite ? 'meets' : 'MISSES'} 0.9`)
    }
  } finally {
    await admin(adminUrl, `drop database if exists ${name} with (force)`)
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchDbl().catch((e) => {
    console.error(e)
    process.exitCode = 1
  })
}
