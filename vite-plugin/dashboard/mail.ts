/**
 * The dashboard's Mail page: the messages the app's mailers kept in this process's mailbox
 * (vela/mail keeps every message of the `dev` environment instead of sending it), newest first,
 * and each message with its headers, its text (links made clickable) and its HTML.
 *
 * **Choice:** a message's HTML is served on its own (`/__vela/mail/<id>/html`) and shown in a
 * sandboxed frame, under a policy that runs no script and loads nothing but images: mail HTML is
 * written for mail clients, and the dashboard's own pages must not run what it holds. Its links
 * open in the top window on a click (`<base target="_top">`), so a confirmation link in a mail is
 * followed as a user would from their mail client.
 */
import type { SentMail } from '../../mail/contracts.ts'
import { mailboxMessages } from '../../mail/mailbox.ts'

/** The policy of a message's HTML: images and inline styles only, framed by the dashboard alone. */
export const MAIL_HTML_CSP =
  "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

const LINK = /\bhttps?:\/\/[^\s<>"']+/g

/** `text` cut into plain runs and links, for the template to escape and link. */
export function linkedText(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = []
  let at = 0
  for (const m of text.matchAll(LINK)) {
    // A sentence's closing punctuation is not part of the link.
    const href = m[0].replace(/[.,;:!?)]+$/, '')
    if (m.index > at) parts.push({ text: text.slice(at, m.index) })
    parts.push({ text: href, href })
    at = m.index + href.length
  }
  if (at < text.length) parts.push({ text: text.slice(at) })
  return parts
}

const summary = (m: SentMail) => ({
  id: m.id,
  at: m.at.replace('T', ' ').slice(0, 19),
  from: m.from,
  to: m.to.join(', '),
  subject: m.subject,
  mailer: m.mailer,
})

/** What the list renders: the mailbox's messages, newest first. */
export function mailListView() {
  return { messages: [...mailboxMessages()].reverse().map(summary) }
}

/** What a message's page renders, or undefined when the mailbox no longer holds it. */
export function mailView(id: number) {
  const m = mailboxMessages().find((x) => x.id === id)
  if (!m) return undefined
  return {
    ...summary(m),
    cc: m.cc.join(', '),
    bcc: m.bcc.join(', '),
    replyTo: m.replyTo ?? '',
    messageId: m.messageId,
    template: m.template ?? '',
    attachments: m.attachments.join(', '),
    text: m.text === undefined ? undefined : linkedText(m.text),
    hasHtml: m.html !== undefined,
  }
}

/** A message's HTML, made to open its links in the top window; undefined when there is none. */
export function mailHtml(id: number): string | undefined {
  const html = mailboxMessages().find((x) => x.id === id)?.html
  return html === undefined ? undefined : `<!doctype html><base target="_top">${html}`
}
