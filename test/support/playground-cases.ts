/**
 * The playground over HTTP, route by route, and its error answers (the app's own and the
 * runtime's): status, headers and body shapes. One case list, registered by
 * each backend's suite (test/playground-pglite.test.ts, test/playground-postgres.test.ts) against
 * its own running server.
 */
import { expect, it } from 'vitest'
import WebSocket from 'ws'
import { FormClient, api } from './form-client.ts'
import type { Playground } from './playground.ts'
import { until } from './until.ts'

const JSON_TYPE = /^application\/json/
const HTML_TYPE = /^text\/html/

export function playgroundCases(server: () => Playground): void {
  const call = (path: string, init?: Parameters<ReturnType<typeof api>>[1]) => api(server().base)(path, init)
  const expectJson = async (res: Response, status: number) => {
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toMatch(JSON_TYPE)
    return res.json()
  }

  // ── public group ─────────────────────────────────────────────────────────────────────────────
  it('GET /login renders the login form (username, password, CSRF token) and starts a session', async () => {
    const res = await fetch(`${server().base}/login`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(HTML_TYPE)
    const html = await res.text()
    expect(html).toMatch(/<form method="post" action="\/">/)
    for (const field of ['username', 'password', '_csrf_token']) expect(html).toContain(`name="${field}"`)
    expect(res.headers.get('set-cookie')).toMatch(/^playground_session=[^;]+;.*HttpOnly/i)
  })

  it('GET /heartbeat: 200 with no body and no cookie', async () => {
    const res = await fetch(`${server().base}/heartbeat`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('0')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await res.text()).toBe('')
  })

  it('GET /api/info names the app and the route (and INSTANCE_ID when set), nothing about the runtime', async () => {
    const res = await call('/api/info')
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(JSON.parse(text)).toEqual({ app: 'playground', controller: 'health_controller', action: 'info' })
    for (const detail of [process.version, process.version.slice(1), process.platform, process.arch])
      expect(text).not.toContain(detail)
  })

  it('WS /ws answers each text message m with "Echo: m"', async () => {
    const ws = new WebSocket(`${server().base.replace('http', 'ws')}/ws`)
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)))
    const replies: string[] = []
    const two = new Promise<void>((resolve) => ws.on('message', (m) => replies.push(String(m)) === 2 && resolve()))
    ws.send('hello')
    ws.send('second')
    await two
    ws.close()
    expect(replies).toEqual(['Echo: hello', 'Echo: second'])
  })

  it("WS /ws/rooms/:room opens from the playground's own pages and for clients that send no Origin; a page of another site gets a logged 403", async () => {
    const url = `${server().base.replace('http', 'ws')}/ws/rooms/origin-check`
    const outcome = (origin?: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, origin ? { origin } : {})
        ws.once('open', () => (ws.close(), resolve(101)))
        ws.once('unexpected-response', (_req, res) => (res.resume(), resolve(res.statusCode!)))
        ws.once('error', reject)
      })
    expect(await outcome(server().base)).toBe(101)
    expect(await outcome()).toBe(101)
    expect(await outcome('https://evil.example')).toBe(403)
    await until(
      'the refusal logged',
      () => /403 on GET \/ws\/rooms\/origin-check .*"https:\/\/evil\.example" refused/.test(server().output()),
      5000,
    )
  })

  it('GET / sends a visitor to the notes', async () => {
    const res = await fetch(`${server().base}/`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/notes')
  })

  // ── login ────────────────────────────────────────────────────────────────────────────────────
  it('POST / with the demo account: stored in the session, redirect to /notes, which shows the user', async () => {
    const browser = new FormClient(server().base)
    const res = await browser.login()
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/notes')
    expect(res.headers.get('ratelimit-limit')).toBe('100')
    const page = await browser.page('/notes')
    expect(page).toContain('<span class="meta">admin</span>')
  })

  it('POST / with a wrong password: back to the form with a message, no session user', async () => {
    const browser = new FormClient(server().base)
    const res = await browser.login('admin', 'wrong')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?error=1')
    expect(await browser.page('/login?error=1')).toContain('Invalid username or password.')
    expect((await browser.request('/notes')).headers.get('location')).toBe('/login')
  })

  it('POST /logout forgets the user', async () => {
    const browser = new FormClient(server().base)
    await browser.login()
    const res = await browser.submit('/logout', {}, '/notes')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login')
    expect((await browser.request('/notes')).headers.get('location')).toBe('/login')
  })

  // ── /notes (HTML, signed in) ─────────────────────────────────────────────────────────────────
  it('the notes pages: index newest first, new, create, edit, update, delete, each redirecting as listed', async () => {
    const browser = new FormClient(server().base)
    await browser.login()
    const newForm = await browser.page('/notes/new')
    expect(newForm).toMatch(/<form method="post" action="\/notes">/)
    const stamp = Date.now()
    for (const title of [`first ${stamp}`, `second ${stamp}`]) {
      const created = await browser.submit('/notes/', { title, body: `body of ${title}` }, '/notes/new')
      expect(created.status).toBe(302)
      expect(created.headers.get('location')).toBe('/notes')
    }
    let index = await browser.page('/notes/')
    expect(index.indexOf(`second ${stamp}`)).toBeGreaterThan(-1)
    expect(index.indexOf(`second ${stamp}`)).toBeLessThan(index.indexOf(`first ${stamp}`)) // inserted_at descending
    // Each note shows its author's name, read with the notes by a join on users.
    expect(index).toMatch(new RegExp(`<h2>second ${stamp}</h2>[\\s\\S]*?<p class="meta">by admin · `))

    // A blank title is refused by the changeset, and the answer is still the redirect.
    const blank = await browser.submit('/notes/', { title: '', body: 'nothing' }, '/notes/new')
    expect(blank.headers.get('location')).toBe('/notes')
    expect(await browser.page('/notes/')).not.toContain('nothing')

    const { notes } = (await (await call('/api/notes')).json()) as {
      notes: { id: number; title: string; user_id: number; author: string }[]
    }
    const note = notes.find((n) => n.title === `first ${stamp}`)!
    const admin = (await (await call('/api/users')).json()).users.find((u: { name: string }) => u.name === 'admin')
    expect([note.user_id, note.author]).toEqual([admin.id, 'admin'])
    const edit = await browser.page(`/notes/${note.id}/edit`)
    expect(edit).toContain(`value="first ${stamp}"`)
    expect(edit).toMatch(new RegExp(`<form method="post" action="/notes/${note.id}">`))

    const updated = await browser.submit(
      `/notes/${note.id}`,
      { title: `edited ${stamp}`, body: 'new body' },
      `/notes/${note.id}/edit`,
    )
    expect([updated.status, updated.headers.get('location')]).toEqual([302, '/notes'])
    index = await browser.page('/notes')
    expect(index).toContain(`edited ${stamp}`)
    expect(index).not.toContain(`first ${stamp}`)

    const deleted = await browser.submit(`/notes/${note.id}/delete`, {}, '/notes')
    expect([deleted.status, deleted.headers.get('location')]).toEqual([302, '/notes'])
    expect(await browser.page('/notes')).not.toContain(`edited ${stamp}`)
    expect((await call(`/api/notes/${note.id}`)).status).toBe(404)
  })

  it('every /notes route sends a visitor who is not signed in to /login, and writes nothing', async () => {
    const visitor = new FormClient(server().base)
    const title = `anonymous ${Date.now()}`
    for (const [method, path] of [
      ['GET', '/notes/'],
      ['GET', '/notes/new'],
      ['POST', '/notes/'],
      ['GET', '/notes/1/edit'],
      ['POST', '/notes/1'],
      ['POST', '/notes/1/delete'],
    ] as const) {
      // The forms carry a valid CSRF token of the visitor's session: the login check is what refuses them.
      const res = method === 'GET' ? await visitor.request(path) : await visitor.submit(path, { title, body: 'b' })
      expect([method, path, res.status, res.headers.get('location')]).toEqual([method, path, 302, '/login'])
    }
    const { notes } = await expectJson(await call('/api/notes'), 200)
    expect(notes.map((n: { title: string }) => n.title)).not.toContain(title)
  })

  it('GET /notes/<id>/edit of a missing note is a 404 page', async () => {
    const browser = new FormClient(server().base)
    await browser.login()
    for (const id of ['999999', 'abc']) {
      const res = await browser.request(`/notes/${id}/edit`)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(HTML_TYPE)
    }
  })

  // ── /api/users ───────────────────────────────────────────────────────────────────────────────
  it('users: list, create, show; the password hash is never returned', async () => {
    const name = `user${Date.now()}`
    const created = await expectJson(
      await call('/api/users', { body: { name, email: `${name}@example.com`, password_hash: 'x' } }),
      201,
    )
    expect(created).toEqual({ id: expect.any(Number), name, email: `${name}@example.com`, note_count: 0 })
    expect(await expectJson(await call(`/api/users/${created.id}`), 200)).toEqual(created)
    const { users } = await expectJson(await call('/api/users'), 200)
    expect(users).toContainEqual(created)
    // admin wrote the notes the pages' case left (its first note was deleted): counted by leftJoin + groupBy + count.
    expect(users.find((u: { name: string }) => u.name === 'admin')).toEqual({
      id: expect.any(Number),
      name: 'admin',
      email: 'admin@example.com',
      note_count: 1,
    })
    for (const u of users) expect(Object.keys(u).sort()).toEqual(['email', 'id', 'name', 'note_count'])
  })

  it('users: 400 without a usable id, 404 for a missing one, 422 { error } without name or email', async () => {
    expect(await expectJson(await call('/api/users/abc'), 400)).toEqual({ error: expect.any(String) })
    expect(await expectJson(await call('/api/users/999999'), 404)).toEqual({ error: expect.any(String) })
    expect(await expectJson(await call('/api/users', { body: { name: 'only-a-name' } }), 422)).toEqual({
      error: expect.stringContaining('email'),
    })
    expect(await expectJson(await call('/api/users', { method: 'POST' }), 422)).toEqual({ error: expect.any(String) })
    expect(await expectJson(await call('/api/users', { body: { name: 'admin', email: 'a@b.c' } }), 422)).toEqual({
      error: 'name has already been taken',
    })
  })

  // ── /api/products ────────────────────────────────────────────────────────────────────────────
  it('products: create 201, list, show, update 200, delete 204 with no body', async () => {
    const product = await expectJson(
      await call('/api/products', { body: { name: 'Widget', price: 1999, description: 'blue' } }),
      201,
    )
    expect(product).toEqual({ id: expect.any(Number), name: 'Widget', price: 1999, description: 'blue' })
    const list = await expectJson(await call('/api/products'), 200)
    expect(list.products).toContainEqual(product)
    expect(list.total).toBe(list.products.length)
    expect(await expectJson(await call(`/api/products/${product.id}`), 200)).toEqual(product)
    const updated = await expectJson(
      await call(`/api/products/${product.id}`, { method: 'PUT', body: { price: 2499 } }),
      200,
    )
    expect(updated).toEqual({ ...product, price: 2499 })
    const gone = await call(`/api/products/${product.id}`, { method: 'DELETE' })
    expect(gone.status).toBe(204)
    expect(await gone.text()).toBe('')
    expect((await call(`/api/products/${product.id}`)).status).toBe(404)
  })

  it('products: 422 { errors } for invalid fields, 422 { error } without a body, 404 and 400 { error }', async () => {
    // The route's schema (priv/schemas/product.json) answers before the changeset would.
    expect(await expectJson(await call('/api/products', { body: { price: 'cheap' } }), 422)).toEqual({
      errors: { name: ["can't be blank"], price: ['must be number'] },
    })
    // No body at all: one message, not field errors.
    expect(await expectJson(await call('/api/products', { method: 'POST' }), 422)).toEqual({
      error: expect.stringContaining('body is required'),
    })
    expect(await expectJson(await call('/api/products/999999'), 404)).toEqual({ error: expect.any(String) })
    expect(await expectJson(await call('/api/products/abc'), 400)).toEqual({ error: expect.any(String) })
    expect(await expectJson(await call('/api/products/abc', { method: 'DELETE' }), 400)).toEqual({
      error: expect.any(String),
    })
    expect(await expectJson(await call('/api/products/999999', { method: 'DELETE' }), 404)).toEqual({
      error: expect.any(String),
    })
    expect(await expectJson(await call('/api/products/999999', { method: 'PUT', body: { price: 1 } }), 404)).toEqual({
      error: expect.any(String),
    })
    const { id } = await expectJson(await call('/api/products', { body: { name: 'Gadget', price: 5 } }), 201)
    expect(
      await expectJson(await call(`/api/products/${id}`, { method: 'PUT', body: { name: '', price: -1 } }), 422),
    ).toEqual({
      errors: { name: ["can't be blank"], price: ['must be greater than or equal to 0'] },
    })
    expect(await expectJson(await call(`/api/products/${id}`, { method: 'PUT' }), 422)).toEqual({
      error: expect.stringContaining('body is required'),
    })
    expect(await expectJson(await call(`/api/products/${id}`), 200)).toEqual({
      id,
      name: 'Gadget',
      price: 5,
      description: null,
    })
  })

  it('products: the list pages on limit and offset, and its total counts every product; 422 { errors } for a bad page', async () => {
    for (const name of ['Page A', 'Page B', 'Page C'])
      await expectJson(await call('/api/products', { body: { name, price: 1 } }), 201)
    const all = await expectJson(await call('/api/products'), 200)
    expect(all.total).toBe(all.products.length)
    expect(all.total).toBeGreaterThanOrEqual(3)
    const page = await expectJson(await call('/api/products?limit=2&offset=1'), 200)
    expect(page).toEqual({ products: all.products.slice(1, 3), total: all.total })
    expect(await expectJson(await call(`/api/products?offset=${all.total}`), 200)).toEqual({
      products: [],
      total: all.total,
    })
    for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=1.5', 'limit=1&limit=2']) {
      const field = query.slice(0, query.indexOf('='))
      expect(await expectJson(await call(`/api/products?${query}`), 422), query).toEqual({
        errors: { [field]: [expect.any(String)] },
      })
    }
  })

  // ── /api/notes ──────────────────────────────────────────────────────────────────────────────
  it('notes API: create 201 (title, body, author), list, show, update (title and body only) 200, delete 204', async () => {
    const author = `writer${Date.now()}` // nobody's username: an author need not be a user
    const note = await expectJson(await call('/api/notes', { body: { title: 'API note', body: 'text', author } }), 201)
    expect(note).toEqual({
      id: expect.any(Number),
      title: 'API note',
      body: 'text',
      author,
      user_id: null,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    })
    expect(await expectJson(await call('/api/notes'), 200)).toEqual({ notes: expect.arrayContaining([note]) })
    expect(await expectJson(await call(`/api/notes/${note.id}`), 200)).toEqual(note)
    // The author and the user link are not the client's to change.
    const updated = await expectJson(
      await call(`/api/notes/${note.id}`, { method: 'PUT', body: { title: 'renamed', author: 'mallory', user_id: 1 } }),
      200,
    )
    expect(updated).toEqual({ ...note, title: 'renamed', updated_at: expect.any(String) })
    const body = await expectJson(await call(`/api/notes/${note.id}`, { method: 'PUT', body: { body: null } }), 200)
    expect(body).toEqual({ ...updated, body: null, updated_at: expect.any(String) })
    expect(await expectJson(await call(`/api/notes/${note.id}`), 200)).toEqual(body)
    const gone = await call(`/api/notes/${note.id}`, { method: 'DELETE' })
    expect(gone.status).toBe(204)
    expect(await gone.text()).toBe('')
    expect(await expectJson(await call(`/api/notes/${note.id}`), 404)).toEqual({ error: expect.any(String) })
    expect((await expectJson(await call('/api/notes'), 200)).notes).not.toContainEqual(
      expect.objectContaining({ id: note.id }),
    )
  })

  it("notes API: an author who is a user links the note to them; the notes page shows every note's author", async () => {
    const stamp = Date.now()
    const bot = await expectJson(
      await call('/api/users', { body: { name: `bot${stamp}`, email: 'bot@example.com' } }),
      201,
    )
    const linked = await expectJson(
      await call('/api/notes', { body: { title: `by a user ${stamp}`, author: bot.name } }),
      201,
    )
    expect(linked).toMatchObject({ author: bot.name, user_id: bot.id, body: null })
    expect((await expectJson(await call(`/api/users/${bot.id}`), 200)).note_count).toBe(1)
    const guest = await expectJson(
      await call('/api/notes', { body: { title: `by a guest ${stamp}`, body: 'hi', author: `guest${stamp}` } }),
      201,
    )
    expect(guest).toMatchObject({ author: `guest${stamp}`, user_id: null })

    const browser = new FormClient(server().base)
    await browser.login()
    const index = await browser.page('/notes')
    expect(index).toMatch(new RegExp(`<h2>by a user ${stamp}</h2>[\\s\\S]*?<p class="meta">by bot${stamp} · `))
    expect(index).toMatch(new RegExp(`<h2>by a guest ${stamp}</h2>[\\s\\S]*?<p class="meta">by guest${stamp} · `))
    for (const { id } of [linked, guest])
      expect((await call(`/api/notes/${id}`, { method: 'DELETE' })).status).toBe(204)
  })

  it('notes API: 422 { errors } without a title or an author and for a blank title, 422 { error } without a body, 404 { error } for a missing note', async () => {
    expect(await expectJson(await call('/api/notes', { body: { body: 'no title' } }), 422)).toEqual({
      errors: { title: ["can't be blank"], author: ["can't be blank"] },
    })
    expect(await expectJson(await call('/api/notes', { body: { title: 'no author' } }), 422)).toEqual({
      errors: { author: ["can't be blank"] },
    })
    expect(await expectJson(await call('/api/notes', { body: { title: 'blank author', author: ' ' } }), 422)).toEqual({
      errors: { author: ["can't be blank"] },
    })
    expect(await expectJson(await call('/api/notes', { method: 'POST' }), 422)).toEqual({
      error: expect.stringContaining('body is required'),
    })
    const { id } = await expectJson(await call('/api/notes', { body: { title: 't', author: 'ada' } }), 201)
    expect(await expectJson(await call(`/api/notes/${id}`, { method: 'PUT', body: { title: '' } }), 422)).toEqual({
      errors: { title: ["can't be blank"] },
    })
    expect(await expectJson(await call(`/api/notes/${id}`, { method: 'PUT' }), 422)).toEqual({
      error: expect.stringContaining('body is required'),
    })
    expect(await expectJson(await call(`/api/notes/${id}`), 200)).toMatchObject({ title: 't', author: 'ada' })
    for (const missing of ['999999', 'abc']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        expect(
          await expectJson(
            await call(`/api/notes/${missing}`, { method, ...(method === 'PUT' ? { body: { title: 'x' } } : {}) }),
            404,
          ),
          `${method} /api/notes/${missing}`,
        ).toEqual({ error: expect.any(String) })
      }
    }
  })

  // ── CORS on the API ──────────────────────────────────────────────────────────────────────────
  it('the API answers CORS preflights and marks responses for any origin; the HTML pages do not', async () => {
    const preflight = await fetch(`${server().base}/api/products`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST|\*/)
    const get = await call('/api/products', { headers: { origin: 'https://elsewhere.example' } })
    expect(get.headers.get('access-control-allow-origin')).toBe('*')
    const page = await fetch(`${server().base}/login`, { headers: { origin: 'https://elsewhere.example' } })
    expect(page.headers.get('access-control-allow-origin')).toBeNull()
  })

  // ── errors ───────────────────────────────────────────────────────────────────────────────────
  it('unknown routes: 404 as JSON { error } or an HTML page, by Accept', async () => {
    expect(await expectJson(await call('/nowhere'), 404)).toEqual({ error: expect.any(String) })
    const html = await fetch(`${server().base}/nowhere`, { headers: { accept: 'text/html' } })
    expect(html.status).toBe(404)
    expect(html.headers.get('content-type')).toMatch(HTML_TYPE)
  })

  it('a method a route does not list: 405 with allow', async () => {
    const res = await call('/api/users', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST'])
    expect(await res.json()).toEqual({ error: expect.any(String) })
  })

  it('a malformed JSON body is a 400 { error }; a body over 1 MiB a 413', async () => {
    expect(await expectJson(await call('/api/products', { raw: '{"name":' }), 400)).toEqual({
      error: expect.any(String),
    })
    const big = await call('/api/products', { raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024), price: 1 }) })
    expect(big.status).toBe(413)
  })

  // Last: what the server printed during all of the above, every route having answered.
  it('no deprecation warning: the playground uses only the forms of this release', () => {
    expect(server().output()).not.toMatch(/VELA_DEP_|DeprecationWarning/)
  })

  // Last: what the server printed during all of the above.
  it('the server logged only its start-up lines: no errors, no exporter noise without a collector', () => {
    const lines = server().output().trim().split('\n')
    // The one refusal the Origin case above asked for is logged too.
    expect(
      lines.filter(
        (l) =>
          !/^\[vela\] 403 on GET \/ws\/rooms\/origin-check .*"https:\/\/evil\.example" refused|^\[vela\] session: no secret configured|^playground: demo account|^playground: metrics on http:\/\/127\.0\.0\.1:\d+\/metrics$|^playground: migrated m\d+_\w+$|^vela: playground \(dev\) listening on|^vela: wrote priv\/assets\/openapi.json and its explorer/.test(
            l,
          ),
      ),
    ).toEqual([])
  })
}
