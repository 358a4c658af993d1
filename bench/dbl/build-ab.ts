/**
 * Query build + compile cost, this tree against another checkout (`BENCH_BASE=<dir>`, e.g. a git
 * worktree of an earlier commit with node_modules linked): both trees' query builders loaded in one
 * process and timed in interleaved batches, so the machine's load moves both alike. The figure is
 * the median of the batch ratios (this tree / base): below 1, this tree builds the query faster.
 *
 *   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   BENCH_DBL=build-ab BENCH_BASE=/tmp/base npm run bench -- dbl
 *
 * The queries are bench/dbl/queries.ts's, taken from each tree (the base must have that file and
 * its `velaJoinChain` / `velaSummaryChain`), so both build the same ones.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

type Tree = {
  readonly q: typeof import('./queries.ts')
  readonly from: typeof import('../../dbl/query/builder.ts').from
  readonly compileSelect: (q: never) => unknown
}

async function load(root: string): Promise<Tree> {
  const at = (p: string) => pathToFileURL(resolve(root, p)).href
  const q = (await import(at('bench/dbl/queries.ts'))) as Tree['q']
  const { compileSelect } = (await import(at('dbl/query/compile.ts'))) as { compileSelect: Tree['compileSelect'] }
  const { from } = (await import(at('dbl/query/builder.ts'))) as { from: Tree['from'] }
  return { q, from, compileSelect }
}

const CASES: Record<string, (t: Tree) => () => unknown> = {
  // Written here, not taken from queries.ts: older trees' queries.ts lack it.
  'one table, where, limit': (t) => () => t.compileSelect(t.from(t.q.Customer).where('id', '=', 7).limit(1) as never),
  'join + filter': (t) => () => t.compileSelect(t.q.velaJoinChain('pro') as never),
  'grouped aggregate': (t) => () => t.compileSelect(t.q.velaSummaryChain('open') as never),
}

const BATCH = 5000
const BATCHES = 41

function batchNs(f: () => unknown): number {
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < BATCH; i++) f()
  return Number(process.hrtime.bigint() - t0) / BATCH
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

/** Prints, per query, the median ns per build + compile in each tree and the median ratio. */
export async function buildAb(base: string): Promise<void> {
  const here = await load(resolve(import.meta.dirname, '../..'))
  const before = await load(base)
  const rows = Object.entries(CASES).map(([query, make]) => {
    const [a, b] = [make(before), make(here)]
    for (let i = 0; i < 30_000; i++) a(), b()
    const ns: { base: number[]; here: number[]; ratio: number[] } = { base: [], here: [], ratio: [] }
    for (let i = 0; i < BATCHES; i++) {
      const x = batchNs(a)
      const y = batchNs(b)
      ns.base.push(x)
      ns.here.push(y)
      ns.ratio.push(y / x)
    }
    return {
      query,
      'base ns': Math.round(median(ns.base)),
      'this tree ns': Math.round(median(ns.here)),
      'this / base': +median(ns.ratio).toFixed(3),
    }
  })
  console.log(`dbl build + compile, this tree against ${base} (${BATCHES} interleaved batches of ${BATCH}):`)
  console.table(rows)
}
