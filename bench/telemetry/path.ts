/**
 * The telemetry bench's in-process part: what telemetry adds to one request's CPU time, with no
 * sockets and no load generator (bench/telemetry/path-runner.ts over the path bench's runner), so
 * the figure holds on a busy machine where the socket part's numbers swing. For each route, one
 * process per mode (`all`, `ratio10`, `none`) and run: the app without telemetry, then telemetry set
 * up and the app with and without its stream handler in interleaved batches (path-runner.ts). Two
 * figures: what the stream handler adds to a request (both apps in one process: same heap, same JIT
 * state, so a difference of 1 µs is not lost in the swings between processes, which are larger),
 * and what telemetry adds all told (against the same process before telemetry was loaded). A run's
 * figure is its fastest batch, then the median over runs.
 *
 * Routes: GET /heartbeat, GET /api/products/:id and, with PostgreSQL reachable, GET
 * /db/products/:id (one `Repo.get` through vela/dbl: at full sampling it carries a query span).
 * The database route's figures carry the driver's I/O wake-ups and swing more; the query span's
 * own cost is measured apart, without a database (`benchQuerySpan`).
 *
 *   BENCH_RUNS (default 5), BENCH_N requests per batch (10000; the database route a fifth),
 *   BENCH_BATCHES per run (6), BENCH_ROUTES (a comma list of the routes above: heartbeat,
 *   products/:id, db products/:id), BENCH_MODES (a comma list of all, ratio10, none)
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { freshPostgresDatabase, POSTGRES_URL } from '../../test/support/services.ts'
import { DDL, SEED } from '../dbl/fixtures.ts'
import { median, PRODUCTION_ENV, picked } from '../load.ts'
import { instructionsPerRequest } from '../path.ts'

const here = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')
const runs = Number(process.env.BENCH_RUNS ?? 5)
const n = Number(process.env.BENCH_N ?? 10_000)
const batches = process.env.BENCH_BATCHES ?? '6'
export const MODES = ['all', 'ratio10', 'none'] as const
type Mode = (typeof MODES)[number]
const LABEL: Record<Mode, string> = {
  all: 'all sampled, exported',
  ratio10: '10 % sampled',
  none: 'nothing exported',
}

async function bundle(name: string): Promise<string> {
  const { build } = await import('esbuild')
  const cache = `${here}/node_modules/.cache/vela-bench`
  mkdirSync(cache, { recursive: true })
  const outfile = `${cache}/telemetry-${name}-${Buffer.from(here).toString('hex').slice(-16)}.mjs`
  await build({
    entryPoints: [`${here}/bench/telemetry/${name}.ts`],
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

/**
 * One process: its last line of output, parsed. Single-threaded GC: on a machine shared with
 * other work, parallel GC helpers waiting for a core burn CPU time that is not the code's.
 */
function runProcess(file: string, env: Record<string, string>): Record<string, number[]> {
  const p = spawnSync(process.execPath, ['--single-threaded-gc', file], {
    env: { ...process.env, ...PRODUCTION_ENV, ...env },
    encoding: 'utf8',
  })
  if (p.status !== 0) throw new Error(`${file} (${JSON.stringify(env)}) failed:\n${p.stderr}`)
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Record<string, number[]>
}

/**
 * The query span alone (bench/telemetry/query-span.ts): vela/dbl's runner over a connection that
 * answers at once, without telemetry and then, in the same process, inside a sampled request span;
 * the median over runs of each phase's fastest batch (CPU µs per query).
 */
export async function benchQuerySpan(): Promise<void> {
  const file = await bundle('query-span')
  const per: Record<'before' | 'after', number[]> = { before: [], after: [] }
  for (let run = 0; run < runs; run++) {
    const out = runProcess(file, { BENCH_OTEL: 'all' })
    per.before.push(Math.min(...out.before!))
    per.after.push(Math.min(...out.after!))
  }
  const off = median(per.before)
  const all = median(per.after)
  console.log(
    `query span, in-process (vela/dbl's runner, no database; ${runs} runs, fastest batch): ${off.toFixed(2)} µs per query without telemetry, ${all.toFixed(2)} µs with a span: ${(all - off).toFixed(2)} µs per query span`,
  )
}

/** A fresh PostgreSQL database holding the bench's products (bench/dbl/fixtures.ts); `undefined`, said, without PostgreSQL. */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  try {
    const db = await freshPostgresDatabase('vela_bench_tel', process.env.VELA_BENCH_POSTGRES_URL ?? POSTGRES_URL)
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      for (const sql of [DDL, SEED]) await client.query(sql)
    } finally {
      await client.end()
    }
    return db
  } catch (err) {
    console.log(`  (no PostgreSQL: the database route is left out: ${(err as Error).message})`)
    return undefined
  }
}

/**
 * Per route and mode, the median over runs of each run's fastest batch: the app's CPU µs per
 * request before telemetry was loaded, what the telemetry stream handler adds (against the same app
 * without it, interleaved in one process), and what telemetry adds all told (against `before`).
 */
export async function benchTelemetryPath(): Promise<void> {
  const file = await bundle('path-runner')
  const db = await benchDatabase()
  const routes = picked(['heartbeat', 'products/:id', ...(db ? ['db products/:id'] : [])], 'BENCH_ROUTES')
  const modes = picked(MODES, 'BENCH_MODES')
  console.log(
    `telemetry, in-process: ${runs} runs × ${batches} batches of ${n} requests (database route ${n / 5}) per app, modes interleaved`,
  )
  type Run = { before: number; off: number; on: number }
  const results: Record<string, Record<Mode, Run[]>> = {}
  try {
    for (let run = 0; run < runs; run++) {
      for (const route of routes) {
        for (const mode of modes) {
          const env = {
            BENCH_ROUTE: route,
            BENCH_OTEL: mode,
            BENCH_N: String(route.startsWith('db') ? n / 5 : n),
            BENCH_BATCHES: batches,
            ...(db ? { BENCH_PG_URL: db.url } : {}),
          }
          const out = runProcess(file, env)
          ;((results[route] ??= {} as Record<Mode, Run[]>)[mode] ??= []).push({
            before: Math.min(...out.before!),
            off: Math.min(...out.off!),
            on: Math.min(...out.on!),
          })
        }
      }
      console.log(`  run ${run + 1}/${runs} done`)
    }
  } finally {
    await db?.drop()
  }
  for (const route of routes) {
    const m = (mode: Mode, f: (r: Run) => number) => median(results[route]![mode].map(f))
    console.log(`GET ${route}: CPU µs per request, in-process (median of ${runs} runs' fastest batch)`)
    console.table(
      modes.map((mode) => ({
        telemetry: LABEL[mode],
        'CPU µs/req, no telemetry': +m(mode, (r) => r.before).toFixed(2),
        'CPU µs/req, traced': +m(mode, (r) => r.on).toFixed(2),
        'µs added by the stream handler': +m(mode, (r) => r.on - r.off).toFixed(2),
        'µs added all told': +m(mode, (r) => r.on - r.before).toFixed(2),
      })),
    )
  }
}

/**
 * Instructions telemetry adds per request, counted under callgrind (bench/telemetry/count-runner.ts,
 * the path bench's count: load-independent, deaf to cache misses): per route, the bench app with no
 * telemetry module loaded, then traced in each mode; `BENCH_N` requests per window (default 20000).
 */
export async function countTelemetry(): Promise<void> {
  const file = await bundle('count-runner')
  const n = Number(process.env.BENCH_N ?? 20_000)
  const routes = picked(['heartbeat', 'products/:id'], 'BENCH_ROUTES')
  const modes = picked(MODES, 'BENCH_MODES')
  console.log(
    `telemetry, counted: instructions per request under callgrind, windows of ${n} requests: the mean over the windows (the fewest of any window in brackets)`,
  )
  for (const route of routes) {
    const off = await instructionsPerRequest(file, route, n, { BENCH_OTEL: 'off' })
    console.log(
      `GET ${route}: ${Math.round(off.mean)} (${Math.round(off.fewest)}) instructions per request without telemetry`,
    )
    const rows = []
    for (const mode of modes) {
      const on = await instructionsPerRequest(file, route, n, { BENCH_OTEL: mode })
      rows.push({
        telemetry: LABEL[mode],
        'instructions/req': `${Math.round(on.mean)} (${Math.round(on.fewest)})`,
        added: `${Math.round(on.mean - off.mean)} (${Math.round(on.fewest - off.fewest)})`,
        windows: on.windows.join(' '),
      })
    }
    console.table(rows)
  }
  const sdk = await instructionsPerRequest(await bundle('sdk-span-runner'), 'heartbeat', n)
  console.log(
    `the SDK alone (sdk-span-runner.ts: one sampled span's calls, no HTTP): ${Math.round(sdk.mean)} (${Math.round(sdk.fewest)}) instructions per span; windows ${sdk.windows.join(' ')}`,
  )
}
