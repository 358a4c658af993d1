/**
 * The jobs' behaviour, run on each database (pglite.test.ts, postgres.test.ts): one repository
 * per file with the jobs tables migrated in, a runtime per case. Handlers record what they saw in
 * memory; the assertions read those records and the runs as `list()` gives them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../dbl/migrations/migrator.ts'
import type { Repo } from '../../dbl/repo.ts'
import { until } from '../../test/support/until.ts'
import type { Job, JobContext } from '../define.ts'
import { defineJob } from '../define.ts'
import type { JobsRuntime, StartJobsOptions } from '../runtime.ts'
import { startJobs } from '../runtime.ts'
import { jobTables } from '../tables.ts'

export interface Backend {
  repo: Repo
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function jobCases(open: () => Promise<Backend>): void {
  let backend: Backend
  let runtime: JobsRuntime | undefined
  beforeAll(async () => {
    backend = await open()
    await migrate(backend.repo, [{ version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down }])
  })
  afterEach(async () => {
    // Each case starts from an empty table: runs it left behind are not the next one's. Stopped
    // first: the truncate and a live worker's fetch or maintenance can deadlock (PostgreSQL 40P01).
    const stopping = runtime
    runtime = undefined
    await stopping?.stop()
    await stopping?.engine.deleteAllJobs()
  })
  afterAll(() => backend.close())

  const start = async (jobs: Record<string, Job<never>>, opts: Partial<StartJobsOptions> = {}) => {
    runtime = await startJobs({ repo: backend.repo, jobs, work: true, config: { pollInterval: 500 }, ...opts })
    return runtime
  }
  /** A job recording each run's args, attempt and time; `fail(n)` makes its n-th run throw. */
  const recorder = <A>(opts: { fail?: (n: number, args: A) => boolean; ms?: number } = {}) => {
    const runs: { args: A; attempt: number; at: number; ctx: JobContext }[] = []
    const handler = async (args: A, ctx: JobContext) => {
      runs.push({ args, attempt: ctx.attempt, at: performance.now(), ctx })
      if (opts.ms) await sleep(opts.ms)
      if (opts.fail?.(runs.length, args)) throw new Error(`run ${runs.length} failed`)
    }
    return { runs, handler }
  }

  describe('enqueue and transactions', () => {
    it('a rollback leaves no run; a commit makes it run once', async () => {
      const r = recorder<{ n: number }>()
      const note = defineJob({ handler: r.handler })
      await start({ note_tx: note as Job<never> })
      const { repo } = backend
      const rolledBack = await repo.transaction(async () => {
        await note.enqueue({ n: 1 })
        // Inside the transaction the run exists: it was inserted on its connection.
        expect((await runtime!.list()).map((j) => j.args)).toContainEqual({ n: 1 })
        repo.rollback('no')
      })
      expect(rolledBack).toEqual({ ok: false, error: 'no' })
      const committed = await repo.transaction(async () => (await note.enqueue({ n: 2 })).id)
      expect(committed.ok).toBe(true)
      await until('the committed run completed', async () =>
        (await runtime!.list()).some((j) => j.state === 'completed'),
      )
      // Two more polls, to see that nothing runs again.
      await sleep(1200)
      expect(r.runs.map((x) => x.args)).toEqual([{ n: 2 }])
      const rows = await runtime!.list()
      expect(rows.map((j) => [j.name, j.state, j.args])).toEqual([['note_tx', 'completed', { n: 2 }]])
      expect(rows[0]!.id).toBe(committed.ok && committed.value)
    })

    it('a key keeps one pending run: enqueueing again updates it', async () => {
      const r = recorder<{ n: number }>()
      const digest = defineJob({ handler: r.handler })
      await start({ digest: digest as Job<never> }, { work: false })
      const first = await digest.enqueue({ n: 1 }, { key: 'user:7' })
      const second = await digest.enqueue({ n: 2 }, { key: 'user:7' })
      const other = await digest.enqueue({ n: 3 }, { key: 'user:8' })
      expect(first.existing).toBe(false)
      expect(second).toEqual({ id: first.id, existing: true })
      expect(other.id).not.toBe(first.id)
      const pending = await runtime!.list({ states: ['created'] })
      expect(pending.map((j) => [j.key, j.args]).sort()).toEqual([
        ['user:7', { n: 2 }],
        ['user:8', { n: 3 }],
      ])
      await runtime!.drain()
      expect(r.runs.map((x) => x.args).sort((a, b) => a.n - b.n)).toEqual([{ n: 2 }, { n: 3 }])
      // Once it ran, the key is free again.
      expect((await digest.enqueue({ n: 4 }, { key: 'user:7' })).existing).toBe(false)
    })

    it('runAt holds a run back; priority orders the ready ones', async () => {
      const r = recorder<string>()
      const ordered = defineJob({ handler: r.handler })
      await start({ ordered: ordered as Job<never> }, { work: 'manual' })
      await ordered.enqueue('later', { runAt: 60_000 })
      await ordered.enqueue('low', { priority: 0 })
      await ordered.enqueue('high', { priority: 10 })
      expect(await runtime!.drain()).toEqual({ completed: 2, failed: 0 })
      expect(r.runs.map((x) => x.args)).toEqual(['high', 'low'])
      const later = (await runtime!.list({ states: ['created'] }))[0]!
      expect(later.args).toBe('later')
      expect(later.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000)
      expect(await runtime!.drain({ scheduled: true })).toEqual({ completed: 1, failed: 0 })
    })

    it('drain gives the handler a signal, live, like a worker does', async () => {
      const r = recorder<string>()
      const signalled = defineJob({ timeout: 5000, handler: r.handler })
      await start({ signalled: signalled as Job<never> }, { work: 'manual' })
      await signalled.enqueue('one')
      expect(await runtime!.drain()).toEqual({ completed: 1, failed: 0 })
      expect(r.runs[0]!.ctx.signal).toBeInstanceOf(AbortSignal)
      expect(r.runs[0]!.ctx.signal.aborted).toBe(false)
    })

    it('refuses bad enqueue options with a message', async () => {
      const j = defineJob({ handler: () => {} })
      await start({ checked: j as Job<never> }, { work: false })
      await expect(j.enqueue({}, { key: '' })).rejects.toThrow('checked.enqueue: key must be a string of 1 to 200')
      await expect(j.enqueue({}, { priority: 1.5 })).rejects.toThrow('priority must be an integer')
      await expect(j.enqueue({}, { runAt: new Date('nope') })).rejects.toThrow('runAt must be a Date')
      await expect(j.enqueue(undefined)).rejects.toThrow('args are required')
    })
  })

  describe('failures', () => {
    it('a run that fails twice then succeeds runs 3 times, waiting longer before each retry', async () => {
      const r = recorder<{ n: number }>({ fail: (n) => n <= 2 })
      const flaky = defineJob({ handler: r.handler, retries: 3, backoff: { delay: 1000 } })
      await start({ flaky: flaky as Job<never> })
      await flaky.enqueue({ n: 1 })
      await until('the third run completed', async () => (await runtime!.list())[0]?.state === 'completed', 30_000)
      expect(r.runs.map((x) => x.attempt)).toEqual([1, 2, 3])
      const gap1 = r.runs[1]!.at - r.runs[0]!.at
      const gap2 = r.runs[2]!.at - r.runs[1]!.at
      // Exponential with jitter: retry n waits [d·2^(n−1), d·2^n), d = 1 s (plus up to a poll).
      expect(gap1).toBeGreaterThanOrEqual(950)
      expect(gap2).toBeGreaterThanOrEqual(1950)
      const row = (await runtime!.list())[0]!
      expect([row.state, row.attempt, row.maxAttempts]).toEqual(['completed', 3, 4])
    })

    it('after the last attempt the run is kept as failed, with its error', async () => {
      const r = recorder<string>({ fail: () => true })
      const doomed = defineJob({ handler: r.handler, retries: 1, backoff: 'fixed' })
      await start({ doomed: doomed as Job<never> })
      await doomed.enqueue('x')
      await until('the run failed for good', async () => (await runtime!.list())[0]?.state === 'failed', 30_000)
      await sleep(1200)
      expect(r.runs).toHaveLength(2)
      const row = (await runtime!.list({ states: ['failed'] }))[0]!
      expect([row.name, row.attempt, row.error]).toEqual(['doomed', 2, 'run 2 failed'])
      // Retried by hand: it runs again (and fails again).
      expect(await runtime!.retry(row.id)).toBe(true)
      await until('the retried run ran', () => r.runs.length === 3, 30_000)
    })

    it('a run past its timeout fails, its signal aborted, and is retried', async () => {
      const seen: { aborted: boolean; attempt: number }[] = []
      const slow = defineJob({
        retries: 1,
        backoff: 'fixed',
        timeout: 1000,
        async handler(_args: unknown, ctx) {
          const attempt = ctx.attempt
          if (attempt > 1) return void seen.push({ aborted: false, attempt })
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }))
          seen.push({ aborted: ctx.signal.aborted, attempt })
        },
      })
      await start({ slow: slow as Job<never> })
      await slow.enqueue({})
      await until('the second attempt completed', async () => (await runtime!.list())[0]?.state === 'completed', 30_000)
      expect(seen).toEqual([
        { aborted: true, attempt: 1 },
        { aborted: false, attempt: 2 },
      ])
    })
  })

  describe('workers', () => {
    it('runs up to `concurrency` runs of a queue at once', async () => {
      let running = 0
      let most = 0
      const busy = defineJob({
        queue: 'busy',
        async handler() {
          most = Math.max(most, ++running)
          await sleep(400)
          running--
        },
      })
      await start({ busy: busy as Job<never> }, { config: { pollInterval: 500, concurrency: { busy: 3 } } })
      for (let i = 0; i < 6; i++) await busy.enqueue({ i })
      await until('all six completed', async () => (await runtime!.list({ states: ['completed'] })).length === 6, 30_000)
      expect(most).toBe(3)
    })

    it('an idle worker starts a run enqueued in its process at once, and a backlog without waiting for polls', async () => {
      const r = recorder<number>()
      const quick = defineJob({ handler: r.handler })
      // A poll every 10 s: what runs sooner was not found by a poll.
      await start({ quick: quick as Job<never> }, { config: { pollInterval: 10_000, concurrency: 2 } })
      await sleep(300)
      const t0 = performance.now()
      await quick.enqueue(0)
      await until('the run started', () => r.runs.length === 1, 5000)
      expect(r.runs[0]!.at - t0).toBeLessThan(5000)
      for (let i = 1; i <= 20; i++) await quick.enqueue(i)
      await until('the backlog ran', () => r.runs.length === 21, 9000)
    })

    it('stop lets a running job finish, and takes no more', async () => {
      const r = recorder<number>({ ms: 1500 })
      const long = defineJob({ handler: r.handler })
      // One worker: the second run waits while the first runs.
      await start({ long: long as Job<never> }, { config: { pollInterval: 500, concurrency: 1 } })
      await long.enqueue(1)
      await until('the run started', () => r.runs.length === 1)
      await long.enqueue(2)
      const stopping = runtime!
      runtime = undefined
      await stopping.stop()
      expect(r.runs.map((x) => x.args)).toEqual([1])
      const rows = await stopping.list()
      expect(rows.map((j) => [j.args, j.state]).sort()).toEqual([
        [1, 'completed'],
        [2, 'created'],
      ])
      // The run left queued is there for the next worker.
      const next = recorder<number>()
      await start({ long: defineJob({ handler: next.handler }) as Job<never> })
      await until('the queued run ran in the next worker', () => next.runs.length === 1, 30_000)
      expect(next.runs[0]!.args).toBe(2)
    })

    it('registers each schedule, and removes one no job declares any more', async () => {
      const nightly = defineJob({ schedule: '0 3 * * *', handler: () => {} })
      await start({ nightly: nightly as Job<never> })
      expect((await runtime!.engine.getSchedules()).map((s) => [s.name, s.key, s.cron])).toEqual([
        ['default', 'nightly', '0 3 * * *'],
      ])
      await runtime!.stop()
      await start({ other: defineJob({ handler: () => {} }) as Job<never> })
      expect(await runtime!.engine.getSchedules()).toEqual([])
    })
  })
}
