/** What `vela/mail` sends and keeps: a message as the app writes it, and the message as sent. Types only. */

/** An address with a display name: `{ name: 'Ann', address: 'ann@example.com' }`. */
export interface MailAddress {
  readonly name?: string
  readonly address: string
}

/** One address (`'ann@example.com'`, `'Ann <ann@example.com>'` or a `MailAddress`) or a list of them. */
export type MailRecipients = string | MailAddress | readonly (string | MailAddress)[]

/** A file sent with a message. */
export interface MailAttachment {
  readonly filename: string
  readonly content: string | Uint8Array
  /** Default: guessed from `filename`. */
  readonly contentType?: string
}

/**
 * A message to send. Its body is `text` and/or `html`, or a `template`: `<templates>/<name>.html.liquid`
 * and/or `<name>.text.liquid` rendered with `data` (at least one of the two files must exist; HTML
 * output is escaped unless the template says `| raw`).
 */
export interface MailMessage {
  readonly to: MailRecipients
  readonly cc?: MailRecipients
  readonly bcc?: MailRecipients
  /** Default: the mailer's `from`. */
  readonly from?: string | MailAddress
  readonly replyTo?: string | MailAddress
  readonly subject: string
  readonly text?: string
  readonly html?: string
  readonly template?: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly headers?: Readonly<Record<string, string>>
  readonly attachments?: readonly MailAttachment[]
}

/** A message as it was sent (or kept in the mailbox): addresses as written in its headers, bodies rendered. */
export interface SentMail {
  /** Its number in the mailbox (increasing from 1 in a process); absent when it went to the transport. */
  readonly id?: number
  /** When it was sent, ISO 8601. */
  readonly at: string
  /** The mailer that sent it (its `name`). */
  readonly mailer: string
  /** `mailbox`: kept in this process (development, tests); `transport`: handed to the transport. */
  readonly delivery: 'mailbox' | 'transport'
  readonly messageId: string
  readonly from: string
  readonly to: readonly string[]
  readonly cc: readonly string[]
  readonly bcc: readonly string[]
  readonly replyTo?: string
  readonly subject: string
  readonly text?: string
  readonly html?: string
  readonly template?: string
  /** The attachments' file names. */
  readonly attachments: readonly string[]
}
