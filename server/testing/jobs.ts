/**
 * Jobs under test: in the `test` environment the app's jobs are not run by workers (the app
 * starts them with `work: 'manual'`, jobs/app-hooks.ts): a test enqueues through the app, then
 * looks at what was enqueued (`enqueuedJobs`) or runs it (`drainJobs`). Both reach the jobs
 * runtime the app started in this process through the jobs registry; neither loads the engine.
 */
import type { DrainResult } from '../../jobs/contracts.ts'
import type { JobRow } from '../../jobs/listing.ts'
import { runtimes } from '../../jobs/registry.ts'

function started(what: string) {
  const all = runtimes()
  if (all.length === 0)
    throw new Error(`${what}: no jobs are running; the app starts them (createTestApp) when src/jobs/ has any`)
  return all
}

/**
 * Runs every run that is ready, in this process, one at a time, until none is left (runs they
 * enqueue included); `{ scheduled: true }` also runs those waiting for their `runAt` or for a
 * retry. Resolves with how many completed and failed (a failed run is retried or kept as failed,
 * as a worker would leave it).
 *
 * @example
 * await t.inject({ method: 'POST', url: '/api/users', body: { name: 'ann' } })
 * expect(await drainJobs()).toEqual({ completed: 1, failed: 0 })
 */
export async function drainJobs(opts: { scheduled?: boolean } = {}): Promise<DrainResult> {
  let completed = 0
  let failed = 0
  for (const runtime of started('drainJobs')) {
    const r = await runtime.drain(opts)
    completed += r.completed
    failed += r.failed
  }
  return { completed, failed }
}

/**
 * The runs waiting to run (queued, scheduled or waiting for a retry), newest first: all of them,
 * or those of one job (by its name, `send_welcome`). For asserting what a request enqueued
 * without running it.
 *
 * @example
 * await t.inject({ method: 'POST', url: '/api/users', body: { name: 'ann' } })
 * const [welcome] = await enqueuedJobs('welcome_note')
 * expect(welcome.args).toEqual({ userId: 1 })
 */
export async function enqueuedJobs(job?: string): Promise<JobRow[]> {
  const rows: JobRow[] = []
  for (const runtime of started('enqueuedJobs')) rows.push(...(await runtime.list({ states: ['created', 'retry'] })))
  return job === undefined ? rows : rows.filter((r) => r.name === job)
}
