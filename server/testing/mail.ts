/**
 * Mail under test: in the `test` environment every mailer keeps its messages in the process's
 * mailbox instead of sending them (mail/define.ts); these read and empty it. They load nothing of
 * nodemailer.
 */
import type { SentMail } from '../../mail/contracts.ts'
import { clearMailbox, mailboxMessages } from '../../mail/mailbox.ts'

/** What `sentMail` keeps: messages with this recipient (any of to, cc, bcc) and/or subject. */
export interface SentMailFilter {
  /** An address (`ann@example.com`), matched case-insensitively inside each recipient as written. */
  readonly to?: string
  readonly subject?: string | RegExp
}

const matches = (mail: SentMail, filter: SentMailFilter) =>
  (filter.to === undefined ||
    [...mail.to, ...mail.cc, ...mail.bcc].some((r) => r.toLowerCase().includes(filter.to!.toLowerCase()))) &&
  (filter.subject === undefined ||
    (typeof filter.subject === 'string' ? mail.subject === filter.subject : filter.subject.test(mail.subject)))

/**
 * The messages the app's mailers sent in this process (oldest first), or those matching `filter`.
 *
 * @example
 * await t.inject({ method: 'POST', url: '/users', body: { email: 'ann@example.com' } })
 * expect(sentMail({ to: 'ann@example.com' }).map((m) => m.subject)).toEqual(['Confirm your account'])
 */
export function sentMail(filter: SentMailFilter = {}): SentMail[] {
  return mailboxMessages().filter((m) => matches(m, filter))
}

/**
 * The last message sent (to `to`, if given); throws when there is none, so a test reads its links directly.
 *
 * @example
 * const link = /https?:\/\/\S+\/confirm\/\S+/.exec(lastMail('ann@example.com').text!)![0]
 */
export function lastMail(to?: string): SentMail {
  const all = sentMail(to === undefined ? {} : { to })
  const last = all.at(-1)
  if (!last) throw new Error(to === undefined ? 'lastMail: no mail was sent' : `lastMail: no mail was sent to ${to}`)
  return last
}

/**
 * Forgets the messages sent so far (call it in `beforeEach` for tests that count messages).
 *
 * @example
 * beforeEach(() => clearMail())
 */
export function clearMail(): void {
  clearMailbox()
}
