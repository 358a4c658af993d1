/**
 * `vela/mail`: mailers that send through SMTP (nodemailer), with Liquid templates, and a mailbox
 * that keeps the messages of development and tests instead of sending them.
 */

// Mailers
export { defineMailer } from './define.ts'
export type { Mailer, MailerOptions } from './define.ts'
export { mailJob } from './job.ts'

// Messages
export type { MailAddress, MailAttachment, MailMessage, MailRecipients, SentMail } from './contracts.ts'

// The mailbox
export { MAILBOX_LIMIT, clearMailbox, mailboxMessages } from './mailbox.ts'
