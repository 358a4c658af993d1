/**
 * Jobs across processes, on PostgreSQL (an embedded PGlite belongs to one process): worker apps
 * (worker-app.ts) started as a built server starts, killed or stopped the way a deploy does.
 * The engine's supervisor and cron run every second here (the app's `jobs.engine`), so a run whose
 * worker died is picked up within seconds of its 3 s timeout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../dbl/migrations/migrator.ts'
import { execute } from '../../dbl/migrations/operations.ts'
import { defineRepo, type Repo } from '../../dbl/repo.ts'
import type { ChildApp } from '../../test/support/child-app.ts'
import { startChildApp } from '../../test/support/child-app.ts'
import { freshPostgresDatabase, serviceAvailable } from '../../test/support/services.ts'
import { until } from '../../test/support/until.ts'
import type { Job } from '../define.ts'
import { defineJob } from '../define.ts'
import type { JobsRuntime } from '../runtime.ts'
import { startJobs } from '../runtime.ts'
import { jobTables } from '../tables.ts'

const available = await serviceAvailable('postgres')
const WORKER = new URL('./worker-app.ts', import.meta.url)

interface RunRow {
  job_id: string
  attempt: number
  pid: number
  finished: boolean
}

describe.skipIf(!available)('jobs across processes (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  let repo: Repo
  let producer: JobsRuntime
  // The producer's copy of the workers' job: same name, never run here (work: false).
  const slow = defineJob<{ ms: number }>({ timeout: 3000, retries: 2, handler: () => {} })
  const started: ChildApp[] = []
  const worker = async (env: NodeJS.ProcessEnv = {}) => {
    const child = await startChildApp(WORKER, { env: { DATABASE_URL: db.url, ...env }, ready: /^READY / })
    started.push(child)
    return child
  }
  // A case that failed half-way must not leave a worker taking the next case's runs.
  afterEach(async () => {
    for (const c of started.splice(0)) {
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL')
      await c.exited
    }
  })
  const runs = async (): Promise<RunRow[]> =>
    (
      await (await repo.adapter()).query<RunRow & Record<string, unknown>>(
        'SELECT job_id::text, attempt, pid, finished_at IS NOT NULL AS finished FROM job_runs ORDER BY id',
      )
    ).rows
  const stateOf = async (id: string) => (await producer.list()).find((j) => j.id === id)?.state

  beforeAll(async () => {
    db = await freshPostgresDatabase('vela_jobs_procs')
    repo = defineRepo({ url: db.url, poolSize: 2 })
    await migrate(repo, [
      { version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down },
      {
        version: 2,
        name: 'create_records',
        up: () => [
          execute(
            'CREATE TABLE job_runs (id serial PRIMARY KEY, job_id uuid, attempt int, pid int, finished_at timestamptz)',
          ),
          execute('CREATE TABLE job_ticks (id serial PRIMARY KEY, minute timestamptz, pid int)'),
        ],
        down: () => [],
      },
    ])
    producer = await startJobs({ repo, jobs: { slow: slow as Job<never> }, work: false })
  })
  afterAll(async () => {
    await producer?.stop()
    await repo?.stop()
    await db?.drop()
  })

  it('SIGKILL of a worker mid-job: the run is picked up again and completes', async () => {
    const a = await worker()
    const { id } = await slow.enqueue({ ms: 20_000 })
    await until('worker A started the run', async () => (await runs()).some((r) => r.job_id === id), 30_000)
    a.proc.kill('SIGKILL')
    await a.exited
    const b = await worker()
    // The killed run expires 3 s after it started; B's supervisor fails it, then B retries it.
    await until('the run completed in worker B', async () => (await stateOf(id)) === 'completed', 90_000)
    const mine = (await runs()).filter((r) => r.job_id === id)
    expect(mine.map((r) => [r.attempt, r.pid === a.proc.pid, r.finished])).toEqual([
      [1, true, false],
      [2, false, true],
    ])
    expect(mine[1]!.pid).toBe(b.proc.pid)
    b.proc.kill('SIGTERM')
    await b.exited
  }, 180_000)

  it('SIGTERM mid-job: the run finishes, the queued one waits for the next worker; nothing lost or doubled', async () => {
    const a = await worker()
    const first = await slow.enqueue({ ms: 2000 })
    await until('worker A started the first run', async () => (await runs()).some((r) => r.job_id === first.id), 30_000)
    // Concurrency 1: this one waits while the first runs.
    const second = await slow.enqueue({ ms: 100 })
    a.proc.kill('SIGTERM')
    expect(await a.exited).toEqual({ code: 0, signal: null })
    expect(await stateOf(first.id)).toBe('completed')
    expect(await stateOf(second.id)).toBe('created')
    const b = await worker()
    await until('worker B ran the second', async () => (await stateOf(second.id)) === 'completed', 30_000)
    const mine = (await runs()).filter((r) => r.job_id === first.id || r.job_id === second.id)
    expect(mine.map((r) => [r.job_id, r.attempt, r.pid, r.finished])).toEqual([
      [first.id, 1, a.proc.pid, true],
      [second.id, 1, b.proc.pid, true],
    ])
    b.proc.kill('SIGTERM')
    await b.exited
  }, 120_000)

  it('two processes share one schedule: it runs once per tick', async () => {
    const a = await worker({ WITH_TICK: '1' })
    const b = await worker({ WITH_TICK: '1' })
    const ticks = async () =>
      (
        await (await repo.adapter()).query<{ minute: Date; n: number; pids: number[] }>(
          'SELECT minute, count(*)::int AS n, array_agg(pid) AS pids FROM job_ticks GROUP BY minute ORDER BY minute',
        )
      ).rows
    // A cron of every minute: two ticks take up to two minutes.
    await until('two ticks ran', async () => (await ticks()).length >= 2, 150_000)
    await new Promise((r) => setTimeout(r, 3000))
    const seen = await ticks()
    expect(seen.map((t) => t.n)).toEqual(seen.map(() => 1))
    for (const t of seen) expect([a.proc.pid, b.proc.pid]).toContain(t.pids[0])
    a.proc.kill('SIGTERM')
    b.proc.kill('SIGTERM')
    await Promise.all([a.exited, b.exited])
  }, 200_000)
})
