/**
 * A worker process for processes.test.ts: an app with two jobs, started as a built server starts
 * one (createApp, listen, the start hook, installShutdown), its jobs wired by `withJobs` as the app
 * entry wires them. Each run is written to `job_runs` (its id, attempt, pid, when it started and
 * finished), each scheduled tick to `job_ticks` (its minute). Prints `READY <url>` once started.
 */
import { createApp, installShutdown, listen } from '../../server/index.ts'
import { defineRepo } from '../../dbl/repo.ts'
import { withJobs } from '../app-hooks.ts'
import { defineJob } from '../define.ts'

const repo = defineRepo({ url: process.env.DATABASE_URL!, poolSize: 4 })
const sql = async (text: string, params: unknown[] = []) => (await repo.adapter()).query(text, params)

const slow = defineJob({
  timeout: 3000,
  retries: 2,
  async handler(args: { ms: number }, ctx) {
    await sql('INSERT INTO job_runs (job_id, attempt, pid) VALUES ($1, $2, $3)', [ctx.id, ctx.attempt, process.pid])
    // Only the first attempt is slow: a retry completes within the 3 s timeout.
    await new Promise((r) => setTimeout(r, ctx.attempt === 1 ? args.ms : 100))
    await sql('UPDATE job_runs SET finished_at = now() WHERE job_id = $1 AND attempt = $2', [ctx.id, ctx.attempt])
  },
})

const tick = defineJob({
  schedule: '* * * * *',
  async handler() {
    await sql("INSERT INTO job_ticks (minute, pid) VALUES (date_trunc('minute', now()), $1)", [process.pid])
  },
})

const config = withJobs(
  {
    bootstrapApplication: 'jobs_worker',
    server: { port: 0, shutdownTimeout: 10_000 },
    jobs: {
      repo,
      concurrency: 1,
      pollInterval: 500,
      shutdownTimeout: 8000,
      engine: { superviseIntervalSeconds: 1, cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 },
    },
    async start() {
      await repo.start()
    },
    async stop() {
      await repo.stop()
    },
  },
  { 'src/jobs/slow.ts': { default: slow }, ...(process.env.WITH_TICK ? { 'src/jobs/tick.ts': { default: tick } } : {}) },
  {},
)

const app = createApp(config)
const listener = await listen(app, { port: 0, host: '127.0.0.1' })
await app.start()
installShutdown(listener, app, { log: (line) => console.log(line) })
console.log(`READY http://127.0.0.1:${listener.port}`)
