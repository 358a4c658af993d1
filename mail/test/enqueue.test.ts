// A mailer's `enqueue`, through vela/jobs on embedded PGlite: the message is checked when
// enqueued, sent by the job's run (rendered then), and a transaction that rolls back leaves no
// mail; a mailer without its job says how to give it one.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { migrate } from '../../dbl/migrations/migrator.ts'
import { defineRepo } from '../../dbl/repo.ts'
import type { Job } from '../../jobs/define.ts'
import { nameJob } from '../../jobs/define.ts'
import type { JobsRuntime } from '../../jobs/runtime.ts'
import { startJobs } from '../../jobs/runtime.ts'
import { jobTables } from '../../jobs/tables.ts'
import { defineMailer } from '../define.ts'
import { mailJob } from '../job.ts'
import { clearMailbox, mailboxMessages } from '../mailbox.ts'

const repo = defineRepo({ url: 'memory:' })
const mailer = defineMailer({ from: 'shop@example.com', deliver: 'mailbox' })
const deliver = mailJob(mailer, { retries: 1 })
let runtime: JobsRuntime

beforeAll(async () => {
  await repo.start()
  await migrate(repo, [{ version: 1, name: 'create_jobs', up: jobTables.up, down: jobTables.down }])
  nameJob(deliver as Job<never>, 'deliver_mail')
  runtime = await startJobs({ repo, jobs: { deliver_mail: deliver as Job<never> }, work: 'manual' })
})
afterAll(async () => {
  await runtime.stop()
  await repo.stop()
})
beforeEach(() => clearMailbox())

it('enqueues the message; the run sends it', async () => {
  await mailer.enqueue({ to: 'ann@example.com', subject: 'Welcome', text: 'hi' })
  expect(mailboxMessages()).toEqual([])
  expect(await runtime.drain()).toEqual({ completed: 1, failed: 0 })
  expect(mailboxMessages().map((m) => [m.to, m.subject, m.text])).toEqual([[['ann@example.com'], 'Welcome', 'hi']])
})

it('a rolled-back transaction leaves no mail; a committed one sends it once', async () => {
  await repo.transaction(async () => {
    await mailer.enqueue({ to: 'ann@example.com', subject: 'Rolled back', text: '.' })
    repo.rollback('no')
  })
  await repo.transaction(() => mailer.enqueue({ to: 'ann@example.com', subject: 'Committed', text: '.' }))
  await runtime.drain()
  expect(mailboxMessages().map((m) => m.subject)).toEqual(['Committed'])
})

it('a message that cannot be sent is refused when enqueued, not in the job', async () => {
  await expect(mailer.enqueue({ to: 'nobody', subject: 'x', text: '.' })).rejects.toThrow(/is not an email address/)
  await expect(
    mailer.enqueue({ to: 'a@example.com', subject: 'x', text: '.', attachments: [{ filename: 'b', content: new Uint8Array(1) }] }),
  ).rejects.toThrow(/attachments are strings/)
  expect((await runtime.list({ states: ['created'] })).length).toBe(0)
})

it('a mailer without mailJob says how to give it one; a second mailJob for it is refused', async () => {
  const other = defineMailer({ name: 'billing', from: 'billing@example.com' })
  await expect(other.enqueue({ to: 'a@example.com', subject: 'x', text: '.' })).rejects.toThrow(
    'billing has no job to send from: export mailJob(billing) from a file under src/jobs/',
  )
  expect(() => mailJob(mailer)).toThrow(/already has a job/)
})
