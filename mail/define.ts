/**
 * `defineMailer`: a mailer sends messages through a transport (SMTP through nodemailer), with
 * bodies written directly or rendered from Liquid templates.
 *
 * **Choice — where a message goes.** As Phoenix's mailers do per environment, but without per-app
 * configuration: in the `dev` and `test` environments a message is kept in this process's mailbox
 * (the dashboard's Mail page shows it in development; `sentMail()`/`lastMail()` from `vela/testing`
 * read it in tests) and never reaches a mail server; in any other environment (`prod`, a built
 * server, a staging profile) it goes to the transport. `deliver` overrides this per mailer
 * (`deliver: 'transport'` to try a real SMTP server from development). The environment is the
 * running app's (`config.environment`; `VELA_ENV`, else `dev`, when no app was created).
 *
 * **Choice — templates.** `template: 'welcome'` renders `src/mail/welcome.html.liquid` and/or
 * `src/mail/welcome.text.liquid` (the `templates` folder, resolved against the app root: the Vite
 * root in development, `dist/` in a built server, where the build copies `src/mail/`). Files are
 * parsed once outside `dev`; in `dev` every send re-reads them, so an edit shows at once.
 */
import { resolve } from 'node:path'
import type { Transport, TransportConfig } from 'nodemailer'
import { currentApp } from '../server/app/current-app.ts'
import { VelaError } from '../server/errors/vela-error.ts'
import type { EnqueuedJob, EnqueueOptions } from '../jobs/contracts.ts'
import type { Job } from '../jobs/define.ts'
import type { MailAddress, MailMessage, MailRecipients, SentMail } from './contracts.ts'
import { keep } from './mailbox.ts'
import { MAIL_TEMPLATES_DIR, createMailTemplates } from './templates.ts'

/** How `defineMailer` is configured. */
export interface MailerOptions {
  /** The sender of messages that name none: `'Shop <shop@example.com>'`. */
  readonly from: string | MailAddress
  /**
   * Where messages go outside `dev` and `test`: an SMTP URL (`smtp://user:pass@host:587`,
   * `smtps://…` for TLS from the start), nodemailer's transport options (`{ host, port, auth, pool }`)
   * or a nodemailer transport object. Read when the first message goes to it.
   */
  readonly transport?: string | TransportConfig | Transport
  /** The templates' folder, relative to the app root unless absolute (default `src/mail`). */
  readonly templates?: string
  /** `mailbox` or `transport` for every message, whatever the environment (default: by environment, see above). */
  readonly deliver?: 'mailbox' | 'transport'
  /** Names the mailer in the mailbox and in errors (default `mailer`). */
  readonly name?: string
}

/** A mailer (`defineMailer`). */
export interface Mailer {
  readonly name: string
  /**
   * Renders and sends `message`; resolves once the transport accepted it (or the mailbox kept it),
   * with the message as sent. Rejects with VELA_ERR_MAIL for a message that cannot be sent as
   * written (no recipient, no subject, no body, a bad address, a missing template), and with the
   * transport's error when the server refused it.
   */
  send(message: MailMessage): Promise<SentMail>
  /**
   * Sends `message` from a background job (vela/jobs): checks it, then enqueues a run of the job
   * `mailJob(mailer)` made (export it from a file under `src/jobs/`), which renders and sends it
   * with the job's retries. Inside `repo.transaction(...)` a rollback leaves no mail.
   */
  enqueue(message: MailMessage, opts?: EnqueueOptions): Promise<EnqueuedJob>
  /** Closes the transport's connections (an SMTP pool), if any were opened. */
  close(): Promise<void>
}

const kJob = Symbol.for('vela.mail.job')
/** The job `mailJob` attached to a mailer. */
type WithJob = { [kJob]?: Job<MailMessage> }

/** Attaches `job` to `mailer`: its `enqueue` adds runs of it (mail/job.ts). */
export function attachJob(mailer: Mailer, job: Job<MailMessage>): void {
  const m = mailer as WithJob
  if (m[kJob] && m[kJob] !== job)
    throw new VelaError('VELA_ERR_MAIL', `${mailer.name} already has a job: call mailJob(${mailer.name}) once`)
  m[kJob] = job
}

type Nodemailer = typeof import('nodemailer')
type SendableMail = Parameters<ReturnType<Nodemailer['createTransport']>['sendMail']>[0]

const shown = (a: string | MailAddress): string =>
  typeof a === 'string' ? a : a.name ? `${JSON.stringify(a.name)} <${a.address}>` : a.address
const list = (r: MailRecipients | undefined): (string | MailAddress)[] =>
  r === undefined ? [] : Array.isArray(r) ? [...r] : [r as string | MailAddress]

/**
 * Defines a mailer. Export it from a module of the app (`src/mailer.ts`) and call `send` where
 * mail goes out; in development every message shows on the dashboard's Mail page, in tests
 * `sentMail()` lists them.
 *
 * @example
 * ```ts
 * // src/mailer.ts
 * import { defineMailer } from 'vela/mail'
 *
 * export const mailer = defineMailer({
 *   from: 'Shop <shop@example.com>',
 *   transport: process.env.SMTP_URL, // smtp://user:pass@smtp.example.com:587
 * })
 *
 * // in a handler: renders src/mail/welcome.html.liquid and welcome.text.liquid
 * await mailer.send({ to: user.email, subject: 'Welcome', template: 'welcome', data: { name: user.name } })
 * ```
 */
export function defineMailer(options: MailerOptions): Mailer {
  const name = options.name ?? 'mailer'
  if (!options || (typeof options.from !== 'string' && typeof options.from?.address !== 'string'))
    throw new VelaError('VELA_ERR_MAIL', `defineMailer (${name}) needs a \`from\` address: 'Shop <shop@example.com>'`)
  if (options.deliver !== undefined && options.deliver !== 'mailbox' && options.deliver !== 'transport')
    throw new VelaError('VELA_ERR_MAIL', `${name}: deliver is 'mailbox' or 'transport', not ${JSON.stringify(options.deliver)}`)

  let nodemailer: Promise<Nodemailer> | undefined
  const load = () => (nodemailer ??= import('nodemailer'))
  let transporter: ReturnType<Nodemailer['createTransport']> | undefined
  let mailboxTransporter: ReturnType<Nodemailer['createTransport']> | undefined
  const templates = new Map<string, ReturnType<typeof createMailTemplates>>()
  const templatesFor = (root: string, cache: boolean) => {
    const dir = resolve(root, options.templates ?? MAIL_TEMPLATES_DIR)
    const key = `${cache}:${dir}`
    let t = templates.get(key)
    if (!t) templates.set(key, (t = createMailTemplates(dir, cache)))
    return t
  }

  /** Throws VELA_ERR_MAIL unless every address of `field` parses as one mailbox with an `@`. */
  const checkAddresses = async (field: string, values: (string | MailAddress)[]) => {
    const { default: parse } = await import('nodemailer/lib/addressparser')
    for (const v of values) {
      const raw = typeof v === 'string' ? v : v?.address
      const parsed = typeof raw === 'string' ? parse(raw, { flatten: true }) : []
      if (parsed.length !== 1 || !/^[^@\s]+@[^@\s]+$/.test(parsed[0]!.address))
        throw new VelaError('VELA_ERR_MAIL', `${name}: ${field} ${JSON.stringify(raw)} is not an email address`)
    }
  }

  /** The message's addresses, once it is known to be sendable as written (else VELA_ERR_MAIL). */
  const checked = async (message: MailMessage) => {
    const to = list(message?.to)
    if (to.length === 0) throw new VelaError('VELA_ERR_MAIL', `${name}: a message needs a recipient (\`to\`)`)
    if (typeof message.subject !== 'string' || message.subject.trim() === '')
      throw new VelaError('VELA_ERR_MAIL', `${name}: a message needs a \`subject\``)
    if (message.text === undefined && message.html === undefined && message.template === undefined)
      throw new VelaError('VELA_ERR_MAIL', `${name}: a message needs a body: \`text\`, \`html\` or a \`template\``)
    const addresses = {
      from: message.from ?? options.from,
      to,
      cc: list(message.cc),
      bcc: list(message.bcc),
      replyTo: message.replyTo === undefined ? [] : [message.replyTo],
    }
    await checkAddresses('to', to)
    await checkAddresses('cc', addresses.cc)
    await checkAddresses('bcc', addresses.bcc)
    await checkAddresses('replyTo', addresses.replyTo)
    await checkAddresses('from', [addresses.from])
    return addresses
  }

  const mailer: Mailer = {
    name,
    async enqueue(message, opts) {
      const job = (mailer as WithJob)[kJob]
      if (!job)
        throw new VelaError(
          'VELA_ERR_MAIL',
          `${name} has no job to send from: export mailJob(${name}) from a file under src/jobs/ (src/jobs/deliver_mail.ts)`,
        )
      await checked(message)
      if (message.attachments?.some((a) => typeof a.content !== 'string'))
        throw new VelaError('VELA_ERR_MAIL', `${name}: an enqueued message's attachments are strings (its args are JSON)`)
      return job.enqueue(message, opts)
    },
    async send(message) {
      const { from, to, cc, bcc, replyTo } = await checked(message)

      const app = currentApp()
      const environment = app?.environment ?? (process.env.VELA_ENV || 'dev')
      // createApp resolved its root; the working directory is absolute.
      const root = app?.root ?? process.cwd()
      const bodies = message.template
        ? await templatesFor(root, environment !== 'dev').render(message.template, message.data ?? {})
        : {}
      const html = message.html ?? bodies.html
      const text = message.text ?? bodies.text
      // The addresses as the message's headers and the mailbox show them.
      const written = { from: shown(from), to: to.map(shown), cc: cc.map(shown), bcc: bcc.map(shown) }
      const writtenReplyTo = replyTo[0] === undefined ? undefined : shown(replyTo[0])
      const mail: SendableMail = {
        ...written,
        replyTo: writtenReplyTo,
        subject: message.subject,
        text,
        html,
        headers: message.headers ? { ...message.headers } : undefined,
        attachments: message.attachments?.map((a) => ({
          filename: a.filename,
          content: typeof a.content === 'string' ? a.content : Buffer.from(a.content),
          contentType: a.contentType,
        })),
      }
      const delivery =
        options.deliver ?? (environment === 'dev' || environment === 'test' ? 'mailbox' : 'transport')
      const { createTransport } = await load()
      let messageId: string
      if (delivery === 'mailbox') {
        // The JSON transport builds the message as SMTP would (its Message-ID, the address
        // parsing) without sending it anywhere.
        mailboxTransporter ??= createTransport({ jsonTransport: true })
        messageId = (await mailboxTransporter.sendMail(mail)).messageId
      } else {
        if (options.transport === undefined)
          throw new VelaError(
            'VELA_ERR_MAIL',
            `${name} has no transport, and the ${environment} environment sends mail: set \`transport\` (an SMTP URL such as smtp://user:pass@host:587)`,
          )
        transporter ??= createTransport(options.transport as never)
        messageId = (await transporter.sendMail(mail)).messageId
      }
      const sent: Omit<SentMail, 'id'> = {
        at: new Date().toISOString(),
        mailer: name,
        delivery,
        messageId,
        ...written,
        ...(writtenReplyTo === undefined ? {} : { replyTo: writtenReplyTo }),
        subject: message.subject,
        ...(text === undefined ? {} : { text }),
        ...(html === undefined ? {} : { html }),
        ...(message.template ? { template: message.template } : {}),
        attachments: (message.attachments ?? []).map((a) => a.filename),
      }
      return delivery === 'mailbox' ? keep(sent) : sent
    },
    async close() {
      transporter?.close()
      transporter = undefined
    },
  }
  return mailer
}
