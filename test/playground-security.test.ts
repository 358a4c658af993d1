// The playground's security over HTTP, as an attacker would probe it: the notes pages behind the
// The playground's security over HTTP, as an attacker would probe it: the notes pages behind the
// login, CSRF on every form, escaped output, sessions that end at logout (a copied cookie too) and
// everywhere at once, logins that do not tell unknown users from wrong passwords (answer and
// timing), the security headers on every reply, the login rate limiter, and passwords kept out of
// the logs.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { FormClient } from './support/form-client.ts'
import type { Playground } from './support/playground.ts'
import { startPlayground } from './support/playground.ts'

let server: Playground
beforeAll(async () => {
  server = await startPlayground()
})
afterAll(() => server?.stop())

const NOTES_ROUTES = [
  ['GET', '/notes'],
  ['GET', '/notes/'],
  ['GET', '/notes/new'],
  ['POST', '/notes/'],
  ['GET', '/notes/1/edit'],
  ['POST', '/notes/1'],
  ['POST', '/notes/1/delete'],
] as const

it('every /notes route sends an anonymous visitor to /login (forms with a valid CSRF token too)', async () => {
  const visitor = new FormClient(server.base)
  for (const [method, path] of NOTES_ROUTES) {
    const res = method === 'GET' ? await visitor.request(path) : await visitor.submit(path, { title: 'x', body: 'y' })
    expect([method, path, res.status, res.headers.get('location')]).toEqual([method, path, 302, '/login'])
  }
  // The same without a session cookie at all: the POSTs are refused before anything else (CSRF).
  for (const [method, path] of NOTES_ROUTES) {
    const res = await fetch(`${server.base}${path}`, { method, redirect: 'manual', headers: { accept: 'text/html' } })
    expect([path, res.status]).toEqual([path, method === 'GET' ? 302 : 403])
  }
})

it('a missing, forged or foreign CSRF token is refused with a 403 and changes nothing', async () => {
  const user = new FormClient(server.base)
  expect((await user.login()).headers.get('location')).toBe('/notes')
  const other = new FormClient(server.base)
  const foreign = await other.csrfToken()
  const forged = randomBytes(64).toString('base64url')
  const title = `csrf ${Date.now()}`
  for (const token of [undefined, '', forged, foreign]) {
    const form: Record<string, string> = { title, body: 'b' }
    if (token !== undefined) form._csrf_token = token
    const res = await user.request('/notes/', { form })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('CSRF token invalid')
  }
  // The header form of the token is checked the same way.
  expect(
    (await user.request('/notes/', { form: { title, body: 'b' }, headers: { 'x-csrf-token': forged } })).status,
  ).toBe(403)
  expect(await user.page('/notes')).not.toContain(title)
  // The login form is protected too (login CSRF).
  expect(
    (await new FormClient(server.base).request('/', { form: { username: 'admin', password: 'password' } })).status,
  ).toBe(403)
  // With the page's own token the same form works.
  expect((await user.submit('/notes/', { title, body: 'b' }, '/notes/new')).headers.get('location')).toBe('/notes')
  expect(await user.page('/notes')).toContain(title)
})

it('a note title containing <script> is shown escaped on the index and the edit form', async () => {
  const user = new FormClient(server.base)
  await user.login()
  const title = `<script>alert("owned")</script> & 'quotes'`
  await user.submit('/notes/', { title, body: '<img src=x onerror=alert(1)>' }, '/notes/new')
  const index = await user.page('/notes')
  expect(index).not.toContain('<script>alert')
  expect(index).not.toContain('<img src=x')
  expect(index).toContain('&lt;script&gt;alert(&#34;owned&#34;)&lt;/script&gt; &amp; &#39;quotes&#39;')
  expect(index).toContain('&lt;img src=x onerror=alert(1)&gt;')
  const id = /href="\/notes\/(\d+)\/edit"/.exec(index)![1]
  const edit = await user.page(`/notes/${id}/edit`)
  expect(edit).toContain('value="&lt;script&gt;alert(&#34;owned&#34;)&lt;/script&gt; &amp; &#39;quotes&#39;"')
})

it('the session cookie is HttpOnly and SameSite=Lax, and a tampered one signs nobody in', async () => {
  const user = new FormClient(server.base)
  const res = await user.login()
  const cookie = res.headers.get('set-cookie')!
  expect(cookie).toMatch(/HttpOnly/i)
  expect(cookie).toMatch(/SameSite=Lax/i)
  const value = user.cookies.get('playground_session')!
  user.cookies.set('playground_session', `${value.slice(0, -4)}AAAA`)
  expect((await user.request('/notes')).headers.get('location')).toBe('/login')
})

it('a wrong password and an unknown user get the same answer in about the same time', async () => {
  const attempt = async (username: string, password: string) => {
    const client = new FormClient(server.base)
    const token = await client.csrfToken()
    const started = performance.now()
    const res = await client.request('/', { form: { username, password, _csrf_token: token } })
    const ms = performance.now() - started
    return { ms, answer: [res.status, res.headers.get('location'), res.headers.has('set-cookie'), await res.text()] }
  }
  const wrong: number[] = []
  const unknown: number[] = []
  for (let i = 0; i < 7; i++) {
    const a = await attempt('admin', `not-the-password-${i}`)
    const b = await attempt(`nobody-${i}`, `not-the-password-${i}`)
    expect(b.answer).toEqual(a.answer)
    expect(a.answer.slice(0, 2)).toEqual([302, '/login?error=1'])
    wrong.push(a.ms)
    unknown.push(b.ms)
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
  const [w, u] = [median(wrong), median(unknown)]
  // Both pay for one scrypt hash (tens of ms); without the dummy hash the unknown user would
  // answer in about a millisecond. Generous bound: within a factor of 2 of each other.
  expect(u / w, `medians: wrong password ${w.toFixed(1)} ms, unknown user ${u.toFixed(1)} ms`).toBeGreaterThan(0.5)
  expect(u / w).toBeLessThan(2)
  // Passwords never reach the logs.
  expect(server.output()).not.toContain('not-the-password')
})

it('a cookie copied before POST /logout is refused after it: /notes sends to /login and no note is created', async () => {
  const user = new FormClient(server.base)
  await user.login()
  const thief = new FormClient(server.base)
  for (const [k, v] of user.cookies) thief.cookies.set(k, v)
  const token = await thief.csrfToken('/notes/new')
  expect((await user.submit('/logout', {}, '/notes')).headers.get('location')).toBe('/login')
  expect((await thief.request('/notes')).headers.get('location')).toBe('/login')
  const title = `after logout ${Date.now()}`
  const posted = await thief.request('/notes/', { form: { title, body: 'b', _csrf_token: token } })
  // The revoked session holds no CSRF secret any more, so the form is refused before the login check.
  expect(posted.status).toBe(403)
  const again = new FormClient(server.base)
  await again.login()
  expect(await again.page('/notes')).not.toContain(title)
})

it('"Log out everywhere" (a CSRF-protected form on the notes page) ends the sessions of every browser', async () => {
  const [laptop, phone] = [new FormClient(server.base), new FormClient(server.base)]
  await laptop.login()
  await phone.login()
  const page = await laptop.page('/notes')
  expect(page).toMatch(
    /<form method="post" action="\/logout\/everywhere"[^>]*>\s*<input type="hidden" name="_csrf_token"/,
  )
  expect((await laptop.request('/logout/everywhere', { form: { confirm: '1' } })).status).toBe(403) // no CSRF token
  const res = await laptop.submit('/logout/everywhere', {}, '/notes')
  expect([res.status, res.headers.get('location')]).toEqual([302, '/login'])
  expect((await phone.request('/notes')).headers.get('location')).toBe('/login')
  expect((await laptop.request('/notes')).headers.get('location')).toBe('/login')
  // A new login works as before.
  await phone.login()
  expect((await phone.request('/notes')).status).toBe(200)
})

it('a login starts a new session with a Max-Age: the cookie from before the login (even a signed-in one) opens nothing after it', async () => {
  const user = new FormClient(server.base)
  const first = await user.login()
  expect(first.headers.getSetCookie()[0]).toMatch(/; Max-Age=\d+/i)
  expect(Number(/Max-Age=(\d+)/i.exec(first.headers.getSetCookie()[0]!)![1])).toBeLessThanOrEqual(7 * 24 * 3600)
  const signedInBefore = user.cookies.get('playground_session')!
  // Logging in again from a signed-in session (another account, the same one) rotates it too.
  await user.login()
  expect(user.cookies.get('playground_session')).not.toBe(signedInBefore)
  expect((await user.request('/notes')).status).toBe(200)
  const old = new FormClient(server.base)
  old.cookies.set('playground_session', signedInBefore)
  expect((await old.request('/notes')).headers.get('location')).toBe('/login')
})

it('every reply carries the security headers: pages, redirects, the API, 404s, CSRF refusals, static files, the explorer', async () => {
  const user = new FormClient(server.base)
  await user.login()
  const replies: [string, Response][] = [
    ['login page', await new FormClient(server.base).request('/login')],
    ['notes page', await user.request('/notes')],
    ['delete button form (CSRF refused)', await user.request('/notes/1/delete', { form: { _csrf_token: 'forged' } })],
    ['anonymous redirect', await new FormClient(server.base).request('/notes')],
    ['unrouted HTML 404', await user.request('/no-such-page')],
    ['405', await fetch(`${server.base}/heartbeat`, { method: 'DELETE' })],
    ['JSON API', await fetch(`${server.base}/api/products`)],
    ['stylesheet', await fetch(`${server.base}/static/app.css`)],
    ['explorer', await fetch(`${server.base}/docs/swagger.html`)],
  ]
  for (const [what, res] of replies) {
    await res.arrayBuffer()
    expect([
      what,
      res.headers.get('x-frame-options'),
      res.headers.get('x-content-type-options'),
      res.headers.get('referrer-policy'),
    ]).toEqual([what, 'DENY', 'nosniff', 'strict-origin-when-cross-origin'])
    const csp = res.headers.get('content-security-policy') ?? ''
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ])
      expect(csp, what).toContain(directive)
    // Served over plain http: no HSTS, no upgrade of the page's requests.
    expect([what, res.headers.get('strict-transport-security'), csp.includes('upgrade-insecure-requests')]).toEqual([
      what,
      null,
      false,
    ])
  }
  // The notes pages hold no inline script or style the policy would block.
  expect(await user.page('/notes')).not.toMatch(/<script|<style|style=/)
})

// Last: it uses up this server's login attempts for the minute.
it('the login limiter answers 429 JSON { error } with Retry-After once its maximum is used up', async () => {
  const post = () =>
    fetch(`${server.base}/`, { method: 'POST', redirect: 'manual', headers: { accept: 'application/json' } })
  const first = await post()
  expect(first.status).toBe(403) // counted even though the CSRF check refuses it
  expect(first.headers.get('ratelimit-limit')).toBe('100')
  const remaining = Number(first.headers.get('ratelimit-remaining'))
  expect(remaining).toBeGreaterThan(0)
  for (let i = 0; i < remaining; i++) expect((await post()).status).toBe(403)
  const limited = await post()
  expect(limited.status).toBe(429)
  expect(limited.headers.get('content-type')).toMatch(/^application\/json/)
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await limited.json()).toEqual({ error: expect.any(String) })
  // A correct login is refused too until the window ends; the rest of the app is not limited.
  expect((await new FormClient(server.base).login()).status).toBe(429)
  expect((await fetch(`${server.base}/login`)).status).toBe(200)
})
