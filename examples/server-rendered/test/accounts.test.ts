import { createTestApp } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'
import { browser } from './browser.ts'

// The app from src/ under the `test` environment: its own in-memory database, a session secret
// made up for the run; requests answered in-process.
const t = await createTestApp()
afterAll(() => t.close())

const account = { email: 'ada@example.com', password: 'correct horse', password_confirmation: 'correct horse' }

it('sends a visitor without a session to the login form', async () => {
  const res = await browser(t).get('/bookmarks')
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe('/login')
})

it('refuses a form posted without the CSRF token of the session', async () => {
  const visitor = browser(t)
  await visitor.get('/signup')
  const res = await visitor.post('/signup', { ...account, _csrf_token: 'forged' })
  expect(res.status).toBe(403)
})

it('shows the sign-up form again with each error, the email kept and no password', async () => {
  const visitor = browser(t)
  await visitor.get('/signup')
  const res = await visitor.post('/signup', { email: 'ada@', password: 'short', password_confirmation: 'other' })
  expect(res.status).toBe(422)
  const html = await res.text()
  expect(html).toContain('<p class="error">Email has invalid format</p>')
  expect(html).toContain('<p class="error">Password should be at least 8 character(s)</p>')
  expect(html).toContain('<p class="error">Password again does not match</p>')
  expect(html).toContain('value="ada@"')
  expect(html).not.toContain('short')
})

it('signs up, lands on the bookmarks with a welcome shown once', async () => {
  const visitor = browser(t)
  await visitor.get('/signup')
  const res = await visitor.post('/signup', account)
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe('/bookmarks')

  const page = await (await visitor.get('/bookmarks')).text()
  expect(page).toContain(
    '<p class="flash notice" role="status">Welcome, ada@example.com! Add your first bookmark below.</p>',
  )
  expect(page).toContain('<span>ada@example.com</span>')
  const again = await (await visitor.get('/bookmarks')).text()
  expect(again).not.toContain('class="flash')
})

it('says the same thing for a wrong password and an unknown email, then logs in', async () => {
  const visitor = browser(t)
  for (const form of [
    { email: 'ada@example.com', password: 'wrong' },
    { email: 'nobody@example.com', password: 'correct horse' },
  ]) {
    await visitor.get('/login')
    const res = await visitor.post('/login', form)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login')
    expect(await (await visitor.get('/login')).text()).toContain(
      '<p class="flash error" role="status">Wrong email or password.</p>',
    )
  }
  const res = await visitor.post('/login', { email: 'ada@example.com', password: 'correct horse' })
  expect(res.headers.get('location')).toBe('/bookmarks')
  expect((await visitor.get('/bookmarks')).status).toBe(200)
})

it('logging out ends the session: a copy of the old cookie opens nothing', async () => {
  const visitor = browser(t)
  await visitor.get('/login')
  await visitor.post('/login', { email: 'ada@example.com', password: 'correct horse' })
  await visitor.get('/bookmarks')
  const copied = new Map(visitor.cookies)

  const out = await visitor.post('/logout')
  expect(out.status).toBe(303)
  expect(out.headers.get('location')).toBe('/login')
  expect(await (await visitor.get('/login')).text()).toContain('Signed out.')

  const cookie = [...copied].map(([name, value]) => `${name}=${value}`).join('; ')
  const replayed = await t.inject({ url: '/bookmarks', headers: { cookie } })
  expect(replayed.status).toBe(302)
  expect(replayed.headers.get('location')).toBe('/login')
})
