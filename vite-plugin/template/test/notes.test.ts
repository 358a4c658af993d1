import { createTestApp } from 'vela/testing'
import { afterAll, expect, it } from 'vitest'

// The app from src/ as `npm run dev` runs it, under the `test` environment: its own in-memory
// database (the start hook has run the migrations), requests answered without a socket by `inject`.
const t = await createTestApp()
afterAll(() => t.close())

interface NoteJson {
  id: number
  title: string
  body: string | null
}

it('answers the heartbeat over a real socket', async () => {
  const server = await t.listen()
  const res = await server.request({ url: '/heartbeat' })
  expect(res.status).toBe(200)
})

it('creates a note through the API, then lists it', async () => {
  const created = await t.inject({ method: 'POST', url: '/api/notes', body: { title: 'Buy milk', body: 'Two litres' } })
  expect(created.status).toBe(201)
  const note = (await created.json()) as NoteJson
  expect(note).toMatchObject({ title: 'Buy milk', body: 'Two litres' })

  const listed = await t.inject({ method: 'GET', url: '/api/notes' })
  expect(listed.status).toBe(200)
  const { notes } = (await listed.json()) as { notes: NoteJson[] }
  expect(notes).toContainEqual(expect.objectContaining({ id: note.id, title: 'Buy milk' }))
})

it('refuses a note without a title: 422 with the error on the field', async () => {
  const res = await t.inject({ method: 'POST', url: '/api/notes', body: { body: 'no title' } })
  expect(res.status).toBe(422)
  expect(await res.json()).toEqual({ errors: { title: ["can't be blank"] } })
})

it('pages the list with limit and offset; a limit that is not a count is a 422 naming the field', async () => {
  for (const title of ['Page 1', 'Page 2', 'Page 3'])
    await t.inject({ method: 'POST', url: '/api/notes', body: { title } })
  const all = (await (await t.inject('/api/notes')).json()) as { notes: NoteJson[] }
  const page = await t.inject('/api/notes?limit=2&offset=1')
  expect(page.status).toBe(200)
  expect(((await page.json()) as { notes: NoteJson[] }).notes).toEqual(all.notes.slice(1, 3))
  const bad = await t.inject('/api/notes?limit=lots')
  expect(bad.status).toBe(422)
  expect(await bad.json()).toEqual({ errors: { limit: ['must be integer'] } })
})

it('adds a note from the HTML form and shows it escaped on the page', async () => {
  const posted = await t.inject({
    method: 'POST',
    url: '/notes',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title: '<script>alert(1)</script>', body: '' }).toString(),
  })
  expect(posted.status).toBe(303)
  expect(posted.headers.get('location')).toBe('/notes')

  const page = await t.inject({ method: 'GET', url: '/notes' })
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  expect(html).not.toContain('<script>alert(1)')
})

it('says how many notes there are, counted by the database', async () => {
  const countOnPage = async () =>
    /<p class="count">(\d+) notes?<\/p>/.exec(await (await t.inject({ method: 'GET', url: '/notes' })).text())?.[1]
  const listed = (await (await t.inject({ method: 'GET', url: '/api/notes' })).json()) as { notes: NoteJson[] }
  expect(await countOnPage()).toBe(String(listed.notes.length))
  await t.inject({ method: 'POST', url: '/api/notes', body: { title: 'One more' } })
  expect(await countOnPage()).toBe(String(listed.notes.length + 1))
})

it('every reply carries the security headers, error pages included; the page loads no inline style or script', async () => {
  for (const url of ['/notes', '/api/notes', '/no-such-page', '/static/app.css']) {
    const res = await t.inject({ method: 'GET', url })
    expect(res.headers.get('x-content-type-options'), url).toBe('nosniff')
    expect(res.headers.get('x-frame-options'), url).toBe('DENY')
    expect(res.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'")
  }
  const html = await (await t.inject({ method: 'GET', url: '/notes' })).text()
  expect(html).toContain('<link rel="stylesheet" href="/static/app.css">')
  expect(html).not.toMatch(/<style|<script|style=/)
})
