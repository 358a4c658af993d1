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
 * valgrind's callgrind, once serving one batch and once three, and the difference over the extra
 * requests is the machine instructions per request, after warm-up, with V8 made deterministic
 * (`--predictable`, fixed seeds). The count does not move with the machine's load (two runs agree
 * within about 2 %), so two versions can be compared on a busy machine; it does not see cache
 * misses or the cost of a system call. Needs `valgrind`; a few minutes per tree and route.
 * `BENCH_ROUTES` (a comma list of the routes) picks routes.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { median, PREDICTABLE, PRODUCTION_ENV, picked } from './load.ts'
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
 * `env`: under callgrind, three batches of `n` requests less one batch, over the `2 n` requests between.
 */
export function instructionsPerRequest(
  file: string,
  route: string,
  n: number,
  env: Record<string, string> = {},
): number {
  return (instructions(file, route, 3, n, env) - instructions(file, route, 1, n, env)) / (2 * n)
}

/** Instructions valgrind counted while `file` served `batches` batches of `n` requests of `route`. */
function instructions(file: string, route: string, batches: number, n: number, env: Record<string, string>): number {
  const p = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...PREDICTABLE, file],
    {
      env: {
        ...process.env,
        ...PRODUCTION_ENV,
        ...env,
        BENCH_ROUTE: route,
        BENCH_N: String(n),
        BENCH_BATCHES: String(batches),
      },
      encoding: 'utf8',
    },
  )
  const collected = /Collected : (\d+)/.exec(p.stderr)
  if (p.status !== 0 || !collected) throw new Error(`callgrind (${file}, ${route}) failed:\n${p.stderr}`)
  return Number(collected[1])
}

async function countInstructions(bundles: string[]): Promise<void> {
  const n = Number(process.env.BENCH_N ?? 20_000)
  console.log(`path, counted: instructions per request under callgrind, over ${2 * n} requests after ${n} of warm-up`)
  const perRequest = routes.map((route) => bundles.map((file) => instructionsPerRequest(file, route, n)))
  console.table(
    routes.map((route, r) => ({
      route,
      ...Object.fromEntries(trees.map((t, i) => [i === 0 ? 'this tree' : t, Math.round(perRequest[r]![i]!)])),
      ...Object.fromEntries(
        trees.slice(1).map((t, i) => [`${t}/this`, +(perRequest[r]![i + 1]! / perRequest[r]![0]!).toFixed(3)]),
      ),
    })),
  )
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPath()
