// The dashboard's Mail page, served by createDashboard over a real listener: the messages a
// mailer kept in the `dev` environment, newest first; one message with its headers, its text with
// links, and its HTML served apart under a policy that runs no script.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { defineMailer } from '../../mail/define.ts'
import { clearMailbox } from '../../mail/mailbox.ts'
import { createApp } from '../../server/app/create-app.ts'
import { TOKEN_COOKIE } from './access.ts'
import { createDashboard } from './index.ts'
import { linkedText } from './mail.ts'

let server: Server
let base = ''
const app = createApp({ bootstrapApplication: 'mail_page', environment: 'dev' }, { env: {} })
const dashboard = createDashboard(() => app)
const cookie = `${TOKEN_COOKIE}=${dashboard.token}`
const mailer = defineMailer({ from: 'Shop <shop@example.com>' })

beforeAll(async () => {
  clearMailbox()
  server = createServer((req, res) => {
    if (!dashboard.handle(req, res)) res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__vela`
})
afterAll(async () => {
  dashboard.close()
  await new Promise((resolve) => server.close(resolve))
  clearMailbox()
})

const get = (path: string) => fetch(`${base}${path}`, { headers: { cookie } })

it('lists the kept messages, newest first, each linking to its page', async () => {
  const empty = await (await get('/mail')).text()
  expect(empty).toContain('No mail yet')
  const first = await mailer.send({ to: 'ann@example.com', subject: 'First', text: 'one' })
  const second = await mailer.send({ to: 'bob@example.com', subject: 'Second <b>', text: 'two' })
  const html = await (await get('/mail')).text()
  expect(html).toContain('aria-current="page">Mail</a>')
  expect(html.indexOf(`data-id="${second.id}"`)).toBeLessThan(html.indexOf(`data-id="${first.id}"`))
  expect(html).toContain(`<a href="/__vela/mail/${second.id}">Second &lt;b&gt;</a>`)
  expect(html).toContain('<td>bob@example.com</td>')
})

it('shows a message: headers, text with clickable links, and the HTML in a sandboxed frame served under its own policy', async () => {
  const sent = await mailer.send({
    to: 'ann@example.com',
    subject: 'Confirm your account',
    text: 'Confirm: http://localhost:8080/confirm?token=a<b>.\nThanks',
    html: '<p>Hi</p><a href="http://localhost:8080/confirm?token=abc">Confirm</a><script>alert(1)</script>',
  })
  const res = await get(`/mail/${sent.id}`)
  expect(res.status).toBe(200)
  const page = await res.text()
  expect(page).toContain('<th>To</th><td>ann@example.com</td>')
  expect(page).toContain(
    '<a href="http://localhost:8080/confirm?token=a" target="_top">http://localhost:8080/confirm?token=a</a>&lt;b&gt;.',
  )
  expect(page).toContain(`<iframe title="The message's HTML" src="/__vela/mail/${sent.id}/html" sandbox=`)
  const framed = await get(`/mail/${sent.id}/html`)
  expect(framed.status).toBe(200)
  expect(framed.headers.get('content-security-policy')).toContain("default-src 'none'")
  expect(framed.headers.get('content-security-policy')).toContain("frame-ancestors 'self'")
  const body = await framed.text()
  expect(body).toContain('<base target="_top">')
  expect(body).toContain('<a href="http://localhost:8080/confirm?token=abc">Confirm</a>')
})

it('a message the mailbox does not hold is a 404; the pages need the token', async () => {
  expect((await get('/mail/999999')).status).toBe(404)
  const textOnly = await mailer.send({ to: 'a@example.com', subject: 't', text: 'x' })
  expect((await get(`/mail/${textOnly.id}/html`)).status).toBe(404)
  expect((await fetch(`${base}/mail`)).status).toBe(403)
})

it('cuts text into runs and links, leaving closing punctuation out of a link', () => {
  expect(linkedText('see https://a.example/x?y=1, then http://b.example).')).toEqual([
    { text: 'see ' },
    { text: 'https://a.example/x?y=1', href: 'https://a.example/x?y=1' },
    { text: ', then ' },
    { text: 'http://b.example', href: 'http://b.example' },
    { text: ').' },
  ])
})
