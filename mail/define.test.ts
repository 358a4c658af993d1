// vela/mail: messages kept in the mailbox (development, tests) or handed to a real SMTP server
// (smtp-server on 127.0.0.1, port 0), bodies from Liquid templates, and the errors a message that
// cannot be sent gets.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../server/app/create-app.ts'
import { clearMail, lastMail, sentMail } from '../server/testing/mail.ts'
import { currentApp, setCurrentApp } from '../server/app/current-app.ts'
import { defineMailer } from './define.ts'
import { MAILBOX_LIMIT, mailboxMessages } from './mailbox.ts'

let root: string
const previousApp = currentApp()
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vela-mail-'))
  mkdirSync(join(root, 'src/mail/account'), { recursive: true })
  writeFileSync(
    join(root, 'src/mail/welcome.html.liquid'),
    '<p>Hello {{ name }}</p><a href="{{ link }}">Confirm</a>',
  )
  writeFileSync(join(root, 'src/mail/welcome.text.liquid'), 'Hello {{ name }}\nConfirm: {{ link }}')
  writeFileSync(join(root, 'src/mail/account/reset.text.liquid'), 'Reset: {{ link }}')
})
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
  setCurrentApp(previousApp)
})
afterEach(() => clearMail())

describe('the mailbox (dev and test environments)', () => {
  it('keeps a message instead of sending it, with its addresses as written and a Message-ID', async () => {
    setCurrentApp({ root, environment: 'dev' })
    const mailer = defineMailer({ from: { name: 'Shop', address: 'shop@example.com' } })
    const sent = await mailer.send({
      to: ['ann@example.com', { name: 'Bob', address: 'bob@example.com' }],
      cc: 'Carol <carol@example.com>',
      subject: 'Hi',
      text: 'plain',
      attachments: [{ filename: 'a.txt', content: 'x' }],
    })
    expect(sent).toMatchObject({
      delivery: 'mailbox',
      mailer: 'mailer',
      from: '"Shop" <shop@example.com>',
      to: ['ann@example.com', '"Bob" <bob@example.com>'],
      cc: ['Carol <carol@example.com>'],
      bcc: [],
      subject: 'Hi',
      text: 'plain',
      attachments: ['a.txt'],
    })
    expect(sent.messageId).toMatch(/^<.+@.+>$/)
    expect(sentMail()).toEqual([sent])
    expect(lastMail('bob@example.com')).toEqual(sent)
  })

  it('renders a template: HTML escaped, text as written; a template with one of the two files gives that body alone', async () => {
    setCurrentApp({ root, environment: 'test' })
    const mailer = defineMailer({ from: 'shop@example.com' })
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Welcome',
      template: 'welcome',
      data: { name: '<Ann>', link: 'http://localhost/confirm?t=1&u=2' },
    })
    const mail = lastMail()
    expect(mail.html).toBe('<p>Hello &lt;Ann&gt;</p><a href="http://localhost/confirm?t=1&amp;u=2">Confirm</a>')
    expect(mail.text).toBe('Hello <Ann>\nConfirm: http://localhost/confirm?t=1&u=2')
    expect(mail.template).toBe('welcome')
    await mailer.send({ to: 'ann@example.com', subject: 'Reset', template: 'account/reset', data: { link: 'L' } })
    expect(lastMail()).toMatchObject({ text: 'Reset: L' })
    expect(lastMail().html).toBeUndefined()
    expect(sentMail({ subject: /^Re/ })).toHaveLength(1)
  })

  it('keeps the newest messages only', async () => {
    const mailer = defineMailer({ from: 'shop@example.com', deliver: 'mailbox' })
    for (let i = 0; i < MAILBOX_LIMIT + 5; i++) await mailer.send({ to: 'a@example.com', subject: `n${i}`, text: '.' })
    const kept = mailboxMessages()
    expect(kept).toHaveLength(MAILBOX_LIMIT)
    expect(kept[0]!.subject).toBe('n5')
    expect(kept.at(-1)!.subject).toBe(`n${MAILBOX_LIMIT + 4}`)
  })
})

describe('messages that cannot be sent', () => {
  const mailer = defineMailer({ from: 'shop@example.com', deliver: 'mailbox' })
  it.each([
    [{ to: [], subject: 'x', text: '.' }, 'a message needs a recipient (`to`)'],
    [{ to: 'a@example.com', subject: ' ', text: '.' }, 'a message needs a `subject`'],
    [{ to: 'a@example.com', subject: 'x' }, 'a message needs a body'],
    [{ to: 'not an address', subject: 'x', text: '.' }, 'to "not an address" is not an email address'],
    [{ to: 'a@example.com', bcc: 'a@b, c@d', subject: 'x', text: '.' }, 'bcc "a@b, c@d" is not an email address'],
    [{ to: 'a@example.com', subject: 'x', template: 'missing' }, 'no mail template "missing"'],
    [{ to: 'a@example.com', subject: 'x', template: '../secrets' }, 'mail template names are words and slashes'],
  ])('%o is refused: %s', async (message, error) => {
    setCurrentApp({ root, environment: 'test' })
    await expect(mailer.send(message as never)).rejects.toMatchObject({
      code: 'VELA_ERR_MAIL',
      message: expect.stringContaining(error),
    })
    expect(sentMail()).toEqual([])
  })

  it('a mailer without a sender is refused when defined', () => {
    expect(() => defineMailer({} as never)).toThrow(/needs a `from` address/)
  })

  it('outside dev and test, a mailer without a transport says so', async () => {
    setCurrentApp({ root, environment: 'prod' })
    await expect(
      defineMailer({ from: 'shop@example.com' }).send({ to: 'a@example.com', subject: 'x', text: '.' }),
    ).rejects.toThrow(/has no transport, and the prod environment sends mail/)
  })
})

describe('SMTP (a real server on 127.0.0.1)', () => {
  const received: { from?: string; to: string[]; data: string }[] = []
  let server: SMTPServer
  let port: number
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let data = ''
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')))
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          })
          done()
        })
      },
      onRcptTo(address, _session, done) {
        done(address.address.endsWith('@refused.example') ? new Error('no such user') : undefined)
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.server.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("in prod a message goes to the transport, with the template's bodies, and is not kept in the mailbox", async () => {
    // The environment the app was created in decides.
    createApp(
      { bootstrapApplication: 'mail-prod', routes: {} },
      { env: { VELA_ENV: 'prod' }, root, log: () => {} },
    )
    const mailer = defineMailer({ from: 'Shop <shop@example.com>', transport: `smtp://127.0.0.1:${port}` })
    const sent = await mailer.send({
      to: 'ann@example.com',
      bcc: 'audit@example.com',
      subject: 'Welcome',
      template: 'welcome',
      data: { name: 'Ann', link: 'http://x/confirm' },
    })
    expect(sent.delivery).toBe('transport')
    expect(sent.id).toBeUndefined()
    expect(sentMail()).toEqual([])
    expect(received).toHaveLength(1)
    const [mail] = received
    expect(mail!.from).toBe('shop@example.com')
    expect(mail!.to).toEqual(['ann@example.com', 'audit@example.com'])
    expect(mail!.data).toContain('Subject: Welcome')
    expect(mail!.data).toContain(sent.messageId)
    expect(mail!.data).not.toMatch(/^Bcc:/m)
    expect(mail!.data).toContain('Hello Ann')
    expect(mail!.data).toContain('<p>Hello Ann</p>')
    await mailer.close()
  })

  it("a recipient the server refuses rejects the send with the server's answer", async () => {
    setCurrentApp({ root, environment: 'prod' })
    const mailer = defineMailer({ from: 'shop@example.com', transport: { host: '127.0.0.1', port, secure: false } })
    await expect(mailer.send({ to: 'x@refused.example', subject: 'x', text: '.' })).rejects.toThrow(/no such user/)
    await mailer.close()
  })

  it("`deliver: 'transport'` sends from dev", async () => {
    setCurrentApp({ root, environment: 'dev' })
    const before = received.length
    const mailer = defineMailer({ from: 'shop@example.com', transport: `smtp://127.0.0.1:${port}`, deliver: 'transport' })
    await mailer.send({ to: 'dev@example.com', subject: 'From dev', text: 'hi' })
    expect(received.slice(before).map((m) => m.to)).toEqual([['dev@example.com']])
    await mailer.close()
  })
})
