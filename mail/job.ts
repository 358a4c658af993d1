/**
 * `mailJob(mailer)`: the background job a mailer's `enqueue` adds runs of. Export it from a file
 * under `src/jobs/` so the app registers and runs it; each run renders and sends one message, and
 * a transport's failure (the SMTP server down) is retried with the job's backoff.
 */
import type { JobDefinition, Job } from '../jobs/define.ts'
import { defineJob } from '../jobs/define.ts'
import type { MailMessage } from './contracts.ts'
import type { Mailer } from './define.ts'
import { attachJob } from './define.ts'

/**
 * The job that sends `mailer`'s enqueued messages (default 5 retries, a 60 s timeout; `settings`
 * overrides them, and names a queue).
 *
 * @example
 * ```ts
 * // src/jobs/deliver_mail.ts
 * import { mailJob } from 'vela/mail'
 * import { mailer } from '../mailer.ts'
 *
 * export default mailJob(mailer)
 *
 * // in a handler, inside the request's transaction: no mail if it rolls back
 * await mailer.enqueue({ to: user.email, subject: 'Welcome', template: 'welcome', data: { name: user.name } })
 * ```
 */
export function mailJob(
  mailer: Mailer,
  settings: Omit<JobDefinition<MailMessage>, 'handler' | 'schedule'> = {},
): Job<MailMessage> {
  const job = defineJob<MailMessage>({
    retries: 5,
    timeout: 60_000,
    ...settings,
    handler: async (message) => void (await mailer.send(message)),
  })
  attachJob(mailer, job)
  return job
}
