/**
 * The dashboard's Jobs page: the runs of the app's jobs (vela/jobs) by what they are waiting for
 * or how they ended (queued, scheduled, running, failed with their errors, the last completed), the
 * schedules, and retry and cancel buttons. It reads the jobs runtime the dev app started in this
 * process (jobs/registry.ts), so it shows nothing before the app's jobs start.
 */
import type { JobRow } from '../../jobs/listing.ts'
import { runtimes } from '../../jobs/registry.ts'

/** How many runs of each kind the page lists. */
const SHOWN = 50

const when = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 19) : '')

function row(r: JobRow) {
  return {
    id: r.id,
    name: r.name,
    queue: r.queue,
    state: r.state,
    attempts: `${r.attempt}/${r.maxAttempts}`,
    args: JSON.stringify(r.args) ?? '',
    key: r.key ?? '',
    runAt: when(r.runAt),
    startedAt: when(r.startedAt),
    completedAt: when(r.completedAt),
    error: r.error ?? '',
    canRetry: r.state === 'failed' || r.state === 'cancelled',
    canCancel: r.state === 'created' || r.state === 'retry' || r.state === 'active',
  }
}

/** What the page renders: no jobs, or the runs by section and the schedules. */
export async function jobsView(now = new Date()) {
  const runtime = runtimes()[0]
  if (!runtime) return { state: 'none' as const }
  const list = async (states: JobRow['state'][]) => (await runtime.list({ states, limit: SHOWN })).map(row)
  const pending = await runtime.list({ states: ['created', 'retry'], limit: 2 * SHOWN })
  return {
    state: 'listed' as const,
    queued: pending.filter((r) => r.state === 'created' && r.runAt <= now).map(row),
    scheduled: pending.filter((r) => r.state === 'retry' || r.runAt > now).map(row),
    running: await list(['active']),
    failed: await list(['failed', 'cancelled']),
    completed: await list(['completed']),
    schedules: runtime.schedules(),
  }
}

/** Retries or cancels a run; false when it is not in a state that allows it (or there are no jobs). */
export async function actOnJob(action: 'retry' | 'cancel', id: string): Promise<boolean> {
  const runtime = runtimes()[0]
  if (!runtime) return false
  return action === 'retry' ? runtime.retry(id) : runtime.cancel(id)
}
