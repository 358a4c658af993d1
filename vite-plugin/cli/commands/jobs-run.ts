/**
 * What the `vela jobs` commands do (jobs.ts declares them): the app's repository (`src/repo.ts`,
 * loaded through one runner per command as `vela migrate` loads it) read for the list, an engine
 * of the command's own for retry and cancel, the app itself started for `work`.
 */
import { cancelRun, retryRun, withEngine } from '../../../jobs/admin.ts'
import type { JobRow, JobState } from '../../../jobs/listing.ts'
import { listJobs } from '../../../jobs/listing.ts'
import { installShutdown } from '../../../server/listener/shutdown.ts'
import { createAppIn } from '../../app-loader.ts'
import { loadRepo } from '../../migrations.ts'
import { withAppRunner } from './load.ts'

const when = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 19) : '-')

/** One line per run: id, job, state, attempt/max, when it runs (or ran), error. */
export function runsText(rows: readonly JobRow[]): string {
  if (rows.length === 0) return 'no runs'
  const lines = rows.map((r) => [
    r.id,
    r.name,
    r.state,
    `${r.attempt}/${r.maxAttempts}`,
    when(r.completedAt ?? r.startedAt ?? r.runAt),
    r.error ?? '',
  ])
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)))
  return lines
    .map((l) =>
      l
        .map((c, i) => (i < l.length - 1 ? c.padEnd(widths[i]!) : c))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

export async function listRuns(root: string, opts: { states: string[]; limit: number; json: boolean }): Promise<void> {
  await withAppRunner(root, {}, async (load) => {
    const repo = await loadRepo(root, load)
    try {
      const rows = await listJobs(repo, { states: opts.states as JobState[], limit: opts.limit })
      console.log(opts.json ? JSON.stringify(rows, null, 2) : runsText(rows))
    } finally {
      await repo.stop()
    }
  })
}

export async function actOnRun(root: string, action: 'retry' | 'cancel', id: string): Promise<number> {
  return withAppRunner(root, {}, async (load) => {
    const repo = await loadRepo(root, load)
    try {
      const done = await withEngine(repo, (engine) =>
        action === 'retry' ? retryRun(engine, repo, id) : cancelRun(engine, repo, id),
      )
      if (done) {
        console.log(action === 'retry' ? `retrying ${id}` : `cancelled ${id}`)
        return 0
      }
      console.error(action === 'retry' ? `no failed or cancelled run ${id}` : `no run ${id} that has not finished yet`)
      return 1
    } finally {
      await repo.stop()
    }
  })
}

/**
 * The app started with its jobs running (`VELA_JOBS=work`, jobs/mode.ts), serving
 * nothing; stopped on SIGTERM or SIGINT by the runtime's shutdown (its stop hook, bounded), which
 * exits the process.
 */
export async function work(root: string): Promise<void> {
  process.env.VELA_JOBS = 'work'
  await withAppRunner(root, {}, async (load, r) => {
    const app = await createAppIn(load)
    await app.start()
    installShutdown({ close: async () => {} }, { stop: () => app.stop().finally(() => r.close()), config: app.config })
    console.log(`vela: ${app.config.bootstrapApplication} (${app.config.environment}) running its jobs; SIGTERM stops`)
    // Kept open: the runner serves the app's modules until the shutdown closes it.
    return new Promise<never>(() => {})
  })
}
