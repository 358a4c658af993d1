/**
 * The mailbox: the messages a mailer delivered to this process instead of a mail server (in
 * development, where the dashboard's Mail page shows them, and under test, where `sentMail()` and
 * `lastMail()` read them). It keeps the newest `MAILBOX_LIMIT` messages: a process sending mail
 * all day in development must not grow without bound.
 *
 * Kept on `globalThis` under a registered symbol: the dev server's dashboard and the app's modules
 * (evaluated by Vite's module runner) may hold two copies of this module, and must see one mailbox.
 */
import type { SentMail } from './contracts.ts'

/** How many messages the mailbox keeps; older ones are dropped first. */
export const MAILBOX_LIMIT = 200

interface Box {
  messages: SentMail[]
  next: number
}

const kMailbox = Symbol.for('vela.mail.mailbox')
const box = (): Box => {
  const g = globalThis as { [kMailbox]?: Box }
  g[kMailbox] ??= { messages: [], next: 1 }
  return g[kMailbox]
}

/** Keeps `mail` (given its number here), dropping the oldest message past the limit. */
export function keep(mail: Omit<SentMail, 'id'>): SentMail {
  const b = box()
  const kept: SentMail = { id: b.next++, ...mail }
  b.messages.push(kept)
  if (b.messages.length > MAILBOX_LIMIT) b.messages.splice(0, b.messages.length - MAILBOX_LIMIT)
  return kept
}

/**
 * The messages in the mailbox, oldest first (`sentMail()` of `vela/testing` filters them).
 *
 * @example
 * const last = mailboxMessages().at(-1)
 */
export function mailboxMessages(): readonly SentMail[] {
  return box().messages.slice()
}

/**
 * Empties the mailbox (numbering goes on).
 *
 * @example
 * clearMailbox()
 */
export function clearMailbox(): void {
  box().messages.length = 0
}
