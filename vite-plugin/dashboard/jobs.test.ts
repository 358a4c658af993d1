// The dashboard's Jobs page, served by createDashboard over a real listener, with a jobs runtime
// on embedded PGlite in this process: runs by section with their errors and the schedules, and the
// retry and cancel buttons' POSTs (a run in the wrong state is a 409).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { migrate } from '../../dbl/migrations/migrator.ts'
import { defineRepo } from '../../dbl/repo.ts'
import type { Job } from '../../jobs/define.ts'
import { defineJob } from '../../jobs/define.ts'
import type { JobsRuntime } from '../../jobs/runtime.ts'
import { startJobs } from '../../jobs/runtime.ts'
import { jobTables } from '../../jobs/tables.ts'
import { createApp } from '../../server/app/create-app.ts'
import { TOKEN_COOKIE } from './access.ts'
import { createDashboard } from './index.ts'

const repo = defineRepo({ url: 'memory:' })
let runtime: JobsRuntime
let server: Server
let base = ''
const app = createApp({ bootstrapApplication: 'jobs_page', environment: 'dev' }, { env: {} })
const dashboard = createDashboard(() => app)
const cookie = `${TOKEN_COOKIE}=${dashboard.token}`

const report = defineJob({ schedule: '0 3 * * *', handler: () => {} })
const flaky = defineJob({
  retries: 0,
  handler: () => {
    throw new Error('the mail server said no')
  },
})

beforeAll(async () => {
  await repo.start()
  await migrate(repo, [{ version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down }])
  runtime = await startJobs({
    repo,
    jobs: { report: report as Job<never>, flaky: flaky as Job<never> },
    work: 'manual',
  })
  server = createServer((req, res) => {
    if (!dashboard.handle(req, res)) res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__vela`
})
afterAll(async () => {
  dashboard.close()
  await new Promise((resolve) => server.close(resolve))
  await runtime.stop()
  await repo.stop()
})

const page = async () => {
  const res = await fetch(`${base}/jobs`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return res.text()
}
const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { cookie }, redirect: 'manual' })

it('lists runs by section, failed ones with their error, and the schedules', async () => {
  await flaky.enqueue({ to: 'ann' })
  await runtime.drain()
  const later = await report.enqueue({}, { runAt: 3_600_000 })
  const html = await page()
  expect(html).toContain('aria-current="page">Jobs</a>')
  expect(html).toMatch(/<td>report<\/td><td><code>0 3 \* \* \*<\/code><\/td>/)
  const failed = /<section class="runs failed">[\s\S]*?<\/section>/.exec(html)![0]
  expect(failed).toContain('the mail server said no')
  expect(failed).toContain('{&#34;to&#34;:&#34;ann&#34;}')
  expect(failed).toMatch(/action="\/__vela\/jobs\/[0-9a-f-]{36}\/retry"/)
  const scheduled = /<section class="runs scheduled">[\s\S]*?<\/section>/.exec(html)![0]
  expect(scheduled).toContain(`data-id="${later.id}"`)
  expect(scheduled).toContain(`/__vela/jobs/${later.id}/cancel`)
})

it('retries a failed run and cancels a pending one; a run in the wrong state is a 409', async () => {
  const failed = (await runtime.list({ states: ['failed'] }))[0]!
  const retried = await post(`/jobs/${failed.id}/retry`)
  expect([retried.status, retried.headers.get('location')]).toEqual([303, '/__vela/jobs'])
  expect((await runtime.list()).find((r) => r.id === failed.id)?.state).toBe('retry')
  const pending = (await runtime.list({ states: ['created'] }))[0]!
  expect((await post(`/jobs/${pending.id}/cancel`)).status).toBe(303)
  expect((await runtime.list()).find((r) => r.id === pending.id)?.state).toBe('cancelled')
  const again = await post(`/jobs/${pending.id}/cancel`)
  expect(again.status).toBe(409)
  expect(await again.text()).toContain('cannot be cancelled in its state')
  // Without the token nothing happens.
  expect((await fetch(`${base}/jobs/${pending.id}/retry`, { method: 'POST' })).status).toBe(403)
  expect((await fetch(`${base}/jobs`, { method: 'DELETE', headers: { cookie } })).status).toBe(405)
})
