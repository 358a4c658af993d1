// An app with a job (fixture: vite-plugin/test/fixtures/jobs), as its developer uses it: `vela
// migrations generate` writes the jobs tables' migration, the app's own vitest drains and
// inspects its jobs (`vela/testing`), and on PostgreSQL `vela jobs work` runs what another process
// enqueued, `vela jobs` lists it and refuses to retry a run that did not fail.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineRepo } from '../dbl/repo.ts'
import { defineJob } from '../jobs/define.ts'
import type { Job } from '../jobs/define.ts'
import { startJobs } from '../jobs/runtime.ts'
import { BIN, useTempDirs } from '../vite-plugin/test/built-app.ts'
import { userEnv, vela, vitestRun } from '../vite-plugin/test/user-process.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'
import { until } from './support/until.ts'

const temp = useTempDirs()
const available = await serviceAvailable('postgres')

async function withJobsMigration(): Promise<string> {
  const app = temp.fixture('jobs')
  const generated = await vela(app, ['migrations', 'generate'])
  expect(generated.output).toMatch(/Generated .*src\/migrations\/m\d{14}_create_jobs\.ts/)
  expect(generated.code).toBe(0)
  expect(readdirSync(join(app, 'src/migrations')).filter((f) => f.endsWith('_create_jobs.ts'))).toHaveLength(1)
  // Written once.
  expect((await vela(app, ['migrations', 'generate'])).output).toContain('nothing generated')
  return app
}

it("the app's own tests see what a request enqueued, and run it with drainJobs", { timeout: 300_000 }, async () => {
  const app = await withJobsMigration()
  const { code, output } = await vitestRun(app)
  expect(output).toMatch(/Tests\s+2 passed \(2\)/)
  expect(code).toBe(0)
})

describe.skipIf(!available)('on PostgreSQL', () => {
  it('`vela jobs work` runs what another process enqueued and stops on SIGTERM; `vela jobs` lists it', {
    timeout: 300_000,
  }, async () => {
    const app = await withJobsMigration()
    const db = await freshPostgresDatabase('vela_jobs_cli')
    const env = { DATABASE_URL: db.url }
    const repo = defineRepo({ url: db.url, poolSize: 2 })
    try {
      expect((await vela(app, ['migrate'], env)).output).toMatch(/migrated \d{14} create_jobs/)
      expect((await vela(app, ['jobs'], env)).output.trim()).toBe('no runs')
      // Another process (a web process with inApp: false, say) enqueues; the worker runs it. The
      // run takes its retries from the enqueuing side's definition: 3 by default, so 4 attempts.
      const producer = await startJobs({
        repo,
        jobs: { mark_note: defineJob({ handler: () => {} }) as Job<never> },
        work: false,
      })
      const { id } = await producer.enqueue('mark_note', { id: 1 })
      const worker = spawn(process.execPath, [BIN, 'jobs', 'work', '--root', app], { cwd: app, env: userEnv(env) })
      let out = ''
      worker.stdout.on('data', (d) => (out += d))
      worker.stderr.on('data', (d) => (out += d))
      const exited = new Promise<number | null>((resolve) => worker.once('exit', (c) => resolve(c)))
      await until('the worker ran the job', async () => (await producer.list())[0]?.state === 'completed', 120_000)
      // Printed once the app has started, its workers already fetching: the run may finish first.
      await until('the worker said so', async () => out.includes('notes_jobs (dev) running its jobs'), 120_000)
      worker.kill('SIGTERM')
      expect(await exited).toBe(0)
      await producer.stop()

      const listed = await vela(app, ['jobs'], env)
      expect(listed.output).toMatch(new RegExp(`^${id}\\s+mark_note\\s+completed\\s+1/4`, 'm'))
      expect((await vela(app, ['jobs', '--state', 'failed'], env)).output.trim()).toBe('no runs')
      const json = JSON.parse((await vela(app, ['jobs', '--json'], env)).output)
      expect(json).toMatchObject([{ id, name: 'mark_note', state: 'completed', args: { id: 1 } }])
      const retry = await vela(app, ['jobs', 'retry', id], env)
      expect(retry.output).toContain(`no failed or cancelled run ${id}`)
      expect(retry.code).toBe(1)
      expect((await vela(app, ['jobs', '--state', 'nope'], env)).code).toBe(2)
    } finally {
      await repo.stop()
      await db.drop()
    }
  })
})
