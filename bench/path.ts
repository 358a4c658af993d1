/**
 * Path bench (`npm run bench -- path`): what one request costs on Vela's direct node path with no
 * network and no load generator: `app.handleNode` over node's own request and response objects,
 * in-process (bench/path-runner.ts), for the runtime bench's three routes and a form POST. It
 * measures Vela's code plus node's request and response objects, and it is steadier than the
 * socket benchmarks on a shared machine, so it is the one to compare two versions of Vela with:
 *
 *   BENCH_TREES=/path/to/an/older/checkout npm run bench -- path
 *
 * runs that checkout's bench app (its bench/servers/vela-app.ts and its sources, bundled with this
 * tree's node_modules) in the same interleaved runs. Each run is a fresh process per tree and
 * route; the figure is the median over runs of each run's fastest batch (ns per request), since a
 * shared machine only ever adds time.
 *
 *   BENCH_RUNS (default 10), BENCH_N requests per batch (20000), BENCH_BATCHES per run (8)
 *
 * With `BENCH_COUNT=instructions`, it counts instead of timing: each tree's bundle runs under
 * valgrind's callgrind, V8 deterministic and collecting garbage by allocation alone, and after a
 * warm-up the instructions of several windows of requests are counted apart; the figure is the
 * mean over the windows' instructions per request (`BENCH_WINDOWS`, `BENCH_N` per window, `BENCH_WARMUP`).
 * The count does not move with the machine's load, so two versions can be compared on a busy
 * machine; it does not see cache misses or the cost of a system call. Needs `valgrind`; a few
 * minutes per tree and route.
 * `BENCH_ROUTES` (a comma list of the routes) picks routes.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { lastCallgrindDump, median, PREDICTABLE_GC, PRODUCTION_ENV, picked } from './load.ts'
import { PATH_ROUTES } from './path-runner.ts'

const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
const trees = [here, ...(process.env.BENCH_TREES ? process.env.BENCH_TREES.split(',') : [])]
const runs = Number(process.env.BENCH_RUNS ?? 10)
const cache = `${here}/node_modules/.cache/vela-bench`

/**
 * One bundle per tree: that tree's bench app, this tree's runner and packages. Named after both
 * trees: checkouts sharing one `node_modules` (git worktrees) then never run each other's bundles.
 */
async function bundle(tree: string): Promise<string> {
  const { build } = await import('esbuild')
  mkdirSync(cache, { recursive: true })
  const i = createHash('sha256').update(`${here}\0${tree}`).digest('hex').slice(0, 16)
  const entry = `${cache}/path-entry-${i}.ts`
  writeFileSync(
    entry,
    `import { createBenchApp } from ${JSON.stringify(`${tree}/bench/servers/vela-app.ts`)}\nimport { runPath } from ${JSON.stringify(`${here}/bench/path-runner.ts`)}\nawait runPath(createBenchApp())\n`,
  )
  const outfile = `${cache}/path-${i}.mjs`
  await build({
    entryPoints: [entry],
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

const routes = picked(Object.keys(PATH_ROUTES), 'BENCH_ROUTES')

export async function benchPath(): Promise<void> {
  const bundles = await Promise.all(trees.map(bundle))
  if (process.env.BENCH_COUNT === 'instructions') return countInstructions(bundles)
  console.log(
    `path: in-process app.handleNode, ${runs} runs × ${process.env.BENCH_BATCHES ?? 8} batches of ${process.env.BENCH_N ?? 20_000} requests; trees: ${trees.join(', ')}`,
  )
  const best: Record<string, number[][]> = Object.fromEntries(routes.map((r) => [r, trees.map(() => [])]))
  for (let run = 0; run < runs; run++) {
    for (const route of routes) {
      bundles.forEach((file, t) => {
        const p = spawnSync(process.execPath, [file], {
          env: { ...process.env, ...PRODUCTION_ENV, BENCH_ROUTE: route },
          encoding: 'utf8',
        })
        if (p.status !== 0) throw new Error(`path bench (${trees[t]}, ${route}) failed:\n${p.stderr}`)
        best[route]![t]!.push(Math.min(...(JSON.parse(p.stdout) as { batches: number[] }).batches))
      })
    }
    console.log(`  run ${run + 1}/${runs} done`)
  }
  console.log(
    'ns per request (median over runs of the fastest batch)' +
      (trees.length > 1 ? '; ratios > 1 mean this tree is faster' : ''),
  )
  console.table(
    routes.map((route) => {
      const m = best[route]!.map(median)
      return {
        route,
        ...Object.fromEntries(trees.map((t, i) => [i === 0 ? 'this tree' : t, Math.round(m[i]!)])),
        ...Object.fromEntries(trees.slice(1).map((t, i) => [`${t}/this`, +(m[i + 1]! / m[0]!).toFixed(3)])),
      }
    }),
  )
}

/**
 * Machine instructions per request of `route` served by `file` (a bundle running `runPath`), with
 * `env`: one process under callgrind, V8 deterministic and collecting garbage by allocation alone
 * (`PREDICTABLE_GC`); after `BENCH_WARMUP` requests (20,000), `BENCH_WINDOWS` windows (5) of `n`
 * requests are counted apart (`callgrind_control` zeroes and dumps the counters around each, while
 * the process waits in a blocking read: bench/path-runner.ts, `countedWindows`). The figure is the
 * mean over the windows: a window that holds a full collection or a late compilation counts up to
 * four times the others (on Node 24, after 40,000 requests, heartbeat windows of 20,000 ranged from
 * 21,000 to 78,000 per request), so only the mean over all of them, where each collection and
 * compilation is counted once, compares two versions. The fewest of any window is reported too. One process rather than the difference of two: each
 * process compiled on its own schedule, and on Node 24 that difference moved by half between runs.
 */
export async function instructionsPerRequest(
  file: string,
  route: string,
  n: number,
  env: Record<string, string> = {},
): Promise<{ mean: number; fewest: number; windows: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'vela-path-count-'))
  const windows = Number(process.env.BENCH_WINDOWS ?? 5)
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${dir}/out`, process.execPath, ...PREDICTABLE_GC, file],
    {
      env: {
        ...process.env,
        ...PRODUCTION_ENV,
        ...env,
        BENCH_ROUTE: route,
        BENCH_N: String(n),
        BENCH_WINDOWS: String(windows),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr!.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const perRequest: number[] = []
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line !== 'start' && line !== 'stop') continue
      await control(line === 'start' ? '-z' : '-d', child.pid!)
      if (line === 'stop') perRequest.push(lastCallgrindDump(dir) / n)
      child.stdin!.write('go\n')
      if (perRequest.length === windows) break
    }
    if ((await exited) !== 0 || perRequest.length !== windows)
      throw new Error(`callgrind (${file}, ${route}) failed:\n${stderr}`)
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
  const mean = perRequest.reduce((a, b) => a + b, 0) / perRequest.length
  return { mean, fewest: Math.min(...perRequest), windows: perRequest.map(Math.round) }
}

/** Runs `callgrind_control <flag>` on the process `pid`. */
function control(flag: '-z' | '-d', pid: number): Promise<void> {
  return new Promise((resolve, reject) =>
    spawn('callgrind_control', [flag, String(pid)], { stdio: 'ignore' }).once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`callgrind_control ${flag} failed (${code})`)),
    ),
  )
}

async function countInstructions(bundles: string[]): Promise<void> {
  const n = Number(process.env.BENCH_N ?? 20_000)
  console.log(
    `path, counted: instructions per request under callgrind, ${process.env.BENCH_WINDOWS ?? 5} windows of ${n} requests after ${process.env.BENCH_WARMUP ?? 20_000} of warm-up; the mean over the windows (the fewest of any window in brackets)`,
  )
  const rows = []
  for (const route of routes) {
    const counted: Awaited<ReturnType<typeof instructionsPerRequest>>[] = []
    for (const file of bundles) counted.push(await instructionsPerRequest(file, route, n))
    counted.forEach((c, i) => console.log(`  ${route}, ${trees[i]}: windows ${c.windows.join(', ')}`))
    rows.push({
      route,
      ...Object.fromEntries(
        trees.map((t, i) => [
          i === 0 ? 'this tree' : t,
          `${Math.round(counted[i]!.mean)} (${Math.round(counted[i]!.fewest)})`,
        ]),
      ),
      ...Object.fromEntries(
        trees.slice(1).map((t, i) => [`${t}/this`, +(counted[i + 1]!.mean / counted[0]!.mean).toFixed(3)]),
      ),
    })
  }
  console.table(rows)
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPath()
