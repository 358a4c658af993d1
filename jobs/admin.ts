/**
 * Retrying and cancelling runs by id, for the runtime, the CLI (`vela jobs retry|cancel`) and the
 * dashboard. pg-boss acts by queue and id; the queue is read from the run itself.
 */
import type { PgBoss } from 'pg-boss'
import type { Repo } from '../dbl/repo.ts'
import { createEngine } from './engine.ts'
import { listJobs } from './listing.ts'

/** Puts a failed or cancelled run back in its queue; false when there is no such run in that state. */
export async function retryRun(engine: PgBoss, repo: Repo, id: string, jobs?: readonly string[]): Promise<boolean> {
  const row = (await listJobs(repo, { id, jobs }))[0]
  if (!row || (row.state !== 'failed' && row.state !== 'cancelled')) return false
  if (row.state === 'cancelled') await engine.resume(row.queue, id)
  else await engine.retry(row.queue, id)
  return true
}

/** Cancels a run that has not finished; false when there is no such run, or it has finished. */
export async function cancelRun(engine: PgBoss, repo: Repo, id: string, jobs?: readonly string[]): Promise<boolean> {
  const row = (await listJobs(repo, { id, jobs }))[0]
  if (!row || row.state === 'completed' || row.state === 'failed' || row.state === 'cancelled') return false
  await engine.cancel(row.queue, id)
  return true
}

/** Runs `fn` with an engine of its own on `repo` that only sends (no workers, no supervisor), stopped after. */
export async function withEngine<T>(repo: Repo, fn: (engine: PgBoss) => Promise<T>): Promise<T> {
  const engine = await createEngine(repo, { work: false })
  await engine.start()
  try {
    return await fn(engine)
  } finally {
    await engine.stop({ graceful: false, close: false })
  }
}
