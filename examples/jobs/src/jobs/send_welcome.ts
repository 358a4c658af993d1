import { defineJob } from 'vela/jobs'
import { deliver } from '../mailer.ts'
import { repo } from '../repo.ts'

/**
 * The welcome mail of a new subscriber: sent, then recorded. A throw (the mail service down) is a
 * failed attempt, tried again up to 5 times with a growing delay; `ctx.signal` aborts at the timeout.
 */
export default defineJob({
  retries: 5,
  timeout: 30_000,
  async handler(args: { subscriberId: number }, ctx) {
    const rows = await repo.query<{ email: string }>('SELECT email FROM subscribers WHERE id = $1', [args.subscriberId])
    if (!rows.ok) throw rows.error
    const to = rows.value.rows[0]?.email
    // Deleted since: nothing to send.
    if (!to) return
    await deliver({ to, subject: 'Welcome!' }, ctx.signal)
    const res = await repo.query('UPDATE subscribers SET welcomed_at = now() WHERE id = $1', [args.subscriberId])
    if (!res.ok) throw res.error
  },
})
