/**
 * Background jobs: `vela/jobs` against pg-boss used directly, on PostgreSQL, in one run.
 *
 *   npm run bench -- jobs
 *   BENCH_JOBS (1000 runs), BENCH_ROUNDS (3), BENCH_CONCURRENCY (10), VELA_BENCH_POSTGRES_URL
 *
 * Each side has a database of its own and the same settings (10 workers of one queue, a 0.5 s
 * poll, a no-op handler). Per round and side:
 * - enqueue: BENCH_JOBS enqueues, 10 at a time (`job.enqueue(args)` / `boss.send(queue, data)`): jobs/s;
 * - run: the workers start on those queued runs; jobs/s until the last completes;
 * - latency: 50 runs enqueued one by one, 100 ms apart, into idle workers of the same process (as
 *   an app with in-app workers enqueues; `boss.send` on the instance that works): from the enqueue
 *   call to the handler's start, p50 and p95. pg-boss alone waits for the next poll; Vela wakes an
 *   idle local worker.
 * The sides alternate within each round; medians are reported with Vela's ratio to pg-boss.
 */
import { PgBoss } from 'pg-boss'
import { migrate } from '../dbl/migrations/migrator.ts'
import { defineRepo } from '../dbl/repo.ts'
import type { Job } from '../jobs/define.ts'
import { defineJob } from '../jobs/define.ts'
import { startJobs } from '../jobs/runtime.ts'
import { jobTables } from '../jobs/tables.ts'
import { POSTGRES_URL, freshPostgresDatabase } from '../test/support/services.ts'

const N = Number(process.env.BENCH_JOBS ?? 1000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10)
const serverUrl = process.env.VELA_BENCH_POSTGRES_URL ?? POSTGRES_URL
const LATENCY_RUNS = 50
const POLL_SECONDS = 0.5

interface Side {
  enqueue(args: { at: number }): Promise<unknown>
  startWorkers(onStart: (args: { at: number }) => void): Promise<void>
  stopWorkers(): Promise<void>
  close(): Promise<void>
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function inBatches(n: number, width: number, fn: () => Promise<unknown>): Promise<void> {
  let left = n
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (left-- > 0) await fn()
    }),
  )
}

async function velaSide(url: string): Promise<Side> {
  const repo = defineRepo({ url, poolSize: concurrency + 2 })
  await repo.start()
  await migrate(repo, [{ version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down }])
  let onStart: (args: { at: number }) => void = () => {}
  const job = defineJob({ retries: 0, handler: (args: { at: number }) => onStart(args) })
  const jobs = { bench: job as Job<never> }
  const config = { concurrency, pollInterval: POLL_SECONDS * 1000 }
  // A producer that stays up; workers come and go.
  const producer = await startJobs({ repo, jobs, work: false, config })
  let workers: Awaited<ReturnType<typeof startJobs>> | undefined
  return {
    // While workers run, through their runtime, as an app with in-app workers enqueues.
    enqueue: (args) => (workers ?? producer).enqueue('bench', args),
    async startWorkers(fn) {
      onStart = fn
      workers = await startJobs({ repo, jobs, work: true, config })
    },
    async stopWorkers() {
      await workers?.stop()
      workers = undefined
    },
    async close() {
      await producer.stop()
      await repo.stop()
    },
  }
}

/**
 * pg-boss alone. `batches`: one worker fetching up to `concurrency` runs at a time and fetching
 * again at once while batches come back full (`burstWhenBatchFull`), its runs in parallel: how
 * pg-boss itself avoids the wait after each run, at the cost of a batch waiting for its slowest run.
 */
async function bossSide(url: string, batches = false): Promise<Side> {
  const boss = new PgBoss({
    connectionString: url,
    max: concurrency + 2,
    schema: batches ? 'pgboss_batches' : 'pgboss_bench',
  })
  boss.on('error', (e) => console.error(e))
  await boss.start()
  await boss.createQueue('bench', { retryLimit: 0 })
  return {
    enqueue: (args) => boss.send('bench', args),
    async startWorkers(fn) {
      if (batches)
        await boss.work<{ at: number }>(
          'bench',
          { batchSize: concurrency, burstWhenBatchFull: true, pollingIntervalSeconds: POLL_SECONDS },
          async (jobs) => Promise.all(jobs.map((job) => fn(job.data))),
        )
      else
        await boss.work<{ at: number }>(
          'bench',
          { localConcurrency: concurrency, pollingIntervalSeconds: POLL_SECONDS },
          async ([job]) => fn(job!.data),
        )
    },
    stopWorkers: () => boss.offWork('bench', { wait: true }),
    close: () => boss.stop({ graceful: false }),
  }
}

async function round(side: Side) {
  // Enqueue throughput.
  let t = performance.now()
  await inBatches(N, concurrency, () => side.enqueue({ at: 0 }))
  const enqueuePerSec = N / ((performance.now() - t) / 1000)
  // Run throughput: the workers drain the N queued runs.
  let done = 0
  let finished!: () => void
  const all = new Promise<void>((r) => (finished = r))
  t = performance.now()
  await side.startWorkers(() => {
    if (++done === N) finished()
  })
  await all
  const runPerSec = N / ((performance.now() - t) / 1000)
  // Latency into idle workers.
  const waits: number[] = []
  let seen = 0
  let last!: () => void
  const allSeen = new Promise<void>((r) => (last = r))
  await side.stopWorkers()
  await side.startWorkers((args) => {
    waits.push(Date.now() - args.at)
    if (++seen === LATENCY_RUNS) last()
  })
  for (let i = 0; i < LATENCY_RUNS; i++) {
    await side.enqueue({ at: Date.now() })
    await sleep(100)
  }
  await allSeen
  await side.stopWorkers()
  return { enqueuePerSec, runPerSec, p50: pct(waits, 0.5), p95: pct(waits, 0.95) }
}

const vdb = await freshPostgresDatabase('vela_bench_jobs', serverUrl)
const bdb = await freshPostgresDatabase('vela_bench_boss', serverUrl)
const names = ['vela', 'pg-boss', 'pg-boss batches'] as const
const sides: Record<(typeof names)[number], Side> = {
  vela: await velaSide(vdb.url),
  'pg-boss': await bossSide(bdb.url),
  'pg-boss batches': await bossSide(bdb.url, true),
}
const results: Record<string, Awaited<ReturnType<typeof round>>[]> = Object.fromEntries(names.map((n) => [n, []]))
try {
  for (let r = 0; r < rounds; r++) {
    // The sides take turns going first.
    const order = names.map((_, i) => names[(i + r) % names.length]!)
    for (const name of order) {
      const res = await round(sides[name])
      results[name]!.push(res)
      console.log(
        `round ${r + 1} ${name.padEnd(15)} enqueue ${res.enqueuePerSec.toFixed(0)} jobs/s · run ${res.runPerSec.toFixed(0)} jobs/s · enqueue→start p50 ${res.p50} ms, p95 ${res.p95} ms`,
      )
    }
  }
} finally {
  for (const name of names) await sides[name].close()
  await vdb.drop()
  await bdb.drop()
}

const med = (name: string, key: 'enqueuePerSec' | 'runPerSec' | 'p50' | 'p95') =>
  median(results[name]!.map((r) => r[key]))
console.log(`\nmedians of ${rounds} rounds, ${N} runs, ${concurrency} workers, ${POLL_SECONDS} s poll (PostgreSQL):`)
console.log('side             enqueue jobs/s   run jobs/s   enqueue→start p50 / p95 ms')
for (const name of names) {
  console.log(
    `${name.padEnd(16)} ${med(name, 'enqueuePerSec').toFixed(0).padStart(14)} ${med(name, 'runPerSec').toFixed(0).padStart(12)}   ${med(name, 'p50')} / ${med(name, 'p95')}`,
  )
}
for (const other of ['pg-boss', 'pg-boss batches'])
  console.log(
    `vela / ${other}: enqueue ${(med('vela', 'enqueuePerSec') / med(other, 'enqueuePerSec')).toFixed(2)}×, run ${(med('vela', 'runPerSec') / med(other, 'runPerSec')).toFixed(2)}×`,
  )
