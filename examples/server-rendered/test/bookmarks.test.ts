import { createTestApp } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'
import { browser } from './browser.ts'

const t = await createTestApp()
afterAll(() => t.close())

/** A browser signed in as a new account. */
async function signedUp(email: string) {
  const visitor = browser(t)
  await visitor.get('/signup')
  await visitor.post('/signup', { email, password: 'a long password', password_confirmation: 'a long password' })
  await visitor.get('/bookmarks')
  return visitor
}

const ada = await signedUp('ada@example.com')
const bob = await signedUp('bob@example.com')

it('saves a bookmark, says so, and lists it with its title escaped', async () => {
  const res = await ada.post('/bookmarks', { title: 'Vela <docs>', url: 'https://example.com/docs' })
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe('/bookmarks')
  const html = await (await ada.get('/bookmarks')).text()
  expect(html).toContain('Saved “Vela &lt;docs&gt;”.')
  expect(html).toContain('<a href="https://example.com/docs" rel="noopener noreferrer">Vela &lt;docs&gt;</a>')
  expect(html).toContain('<p class="count">1 bookmark</p>')
})

it('refuses a link that is not http(s), showing the form again with what was typed', async () => {
  const res = await ada.post('/bookmarks', { title: 'Sneaky', url: 'javascript:alert(1)' })
  expect(res.status).toBe(422)
  const html = await res.text()
  expect(html).toContain('<p class="error">Link must start with http:// or https://</p>')
  expect(html).toContain('value="javascript:alert(1)"')
  expect(html).toContain('<p class="count">1 bookmark</p>')
})

it('shows each user only their own bookmarks, and lets only the owner remove one', async () => {
  const bobs = await (await bob.get('/bookmarks')).text()
  expect(bobs).toContain('<p class="count">0 bookmarks</p>')
  expect(bobs).not.toContain('Vela &lt;docs&gt;')

  const html = await (await ada.get('/bookmarks')).text()
  const action = /action="(\/bookmarks\/\d+\/delete)"/.exec(html)![1]!
  await bob.get('/bookmarks')
  await bob.post(action)
  expect(await (await bob.get('/bookmarks')).text()).toContain('That bookmark was already gone.')
  expect(await (await ada.get('/bookmarks')).text()).toContain('<p class="count">1 bookmark</p>')

  await ada.post(action)
  const after = await (await ada.get('/bookmarks')).text()
  expect(after).toContain('Bookmark removed.')
  expect(after).toContain('<p class="count">0 bookmarks</p>')
})

it('serves the stylesheet, and the pages load no inline style or script', async () => {
  const css = await t.inject('/static/app.css')
  expect(css.status).toBe(200)
  expect(css.headers.get('content-type')).toMatch(/^text\/css/)
  const res = await ada.get('/bookmarks')
  expect(res.headers.get('content-security-policy')).toContain("style-src 'self'")
  const html = await res.text()
  expect(html).toContain('<link rel="stylesheet" href="/static/app.css">')
  expect(html).not.toMatch(/<style|<script|style=/)
})
