// Handler return values (the reply helpers): exact statuses, headers and bodies; the forms before
// options came last, still answered alike and warning once; cookies set through the request on
// every kind of reply; the literal statuses typed clients read.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, expectTypeOf, it, type MockInstance, vi } from 'vitest'
import { describeModes } from '../test/support/modes.ts'
import { forgetDeprecationWarnings } from './deprecation.ts'
import { httpError } from './errors/http-error.ts'
import { definePlugin, ok } from './pipeline/plugin.ts'
import { json, redirect, sendfile, status, view } from './replies.ts'
import type { JsonReply, RedirectReply, StatusReply } from './replies.ts'
import type { Handler, RouteGroup } from './contracts/routes.ts'

const dir = mkdtempSync(join(tmpdir(), 'vela-replies-'))
writeFileSync(join(dir, 'hello.txt'), 'hello file')

const notes_controller = {
  index: () => view({ title: 'All notes' }),
  invalid: () => view({ title: 'Fix it' }, { status: 422, headers: { 'x-view': 'default' } }),
  named: () => view('notes_edit', { title: 'Edit' }, { status: 202, headers: { 'x-view': 'yes' } }),
  bare: () => view('notes_edit'),
  // The form before the name came first.
  oldNamed: () => view({ title: 'Edit' }, { view: 'notes_edit', status: 202, headers: { 'x-view': 'yes' } }),
} satisfies Record<string, Handler>

/** Sets a cookie from the post-request phase, whatever the handler answered. */
const stampCookie = definePlugin({
  name: 'stamp-cookie',
  info: {
    title: 'Stamp',
    version: '1.0.0',
    author: 'tests',
    description: 'sets a cookie after the handler',
    options: {},
  },
  postRequest(req) {
    req.setCookie('stamp', 'post', { sameSite: 'strict' })
    return ok(req)
  },
})

/** A handler that sets the cookie `kind=<name>` and answers with `reply`. */
const withCookie =
  (name: string, reply: Handler): Handler =>
  (req) => {
    req.setCookie('kind', name, { httpOnly: true, path: '/' })
    return reply(req)
  }

const routes: Record<string, RouteGroup> = {
  replies: {
    prefix: '',
    security: false,
    routes: [
      ['GET /json', () => json({ hello: 'world', n: [1, 2] })],
      [
        'GET /json-created',
        () =>
          json({ id: 7 }, { status: 201, headers: { 'X-Extra': 'yes', 'Content-Type': 'application/vnd.api+json' } }),
      ],
      ['GET /json-headers', () => json({ id: 7 }, { headers: { 'x-extra': 'yes' } })],
      ['GET /status', () => status(204)],
      ['GET /status-200', () => status(200)],
      [
        'GET /status-map',
        () => status(422, { errors: { name: ["can't be blank"] } }, { headers: { 'x-reason': 'invalid' } }),
      ],
      ['GET /status-body', () => status(404, { error: 'not found' })],
      ['GET /status-text', () => status(418, "I'm a teapot", { headers: { 'content-type': 'text/plain' } })],
      ['GET /redirect', () => redirect('/login')],
      ['GET /redirect-301', () => redirect('/new-home', { status: 301 })],
      ['GET /redirect-headers', () => redirect('/next', { status: 303, headers: { 'cache-control': 'no-store' } })],
      [
        'GET /redirect-local',
        (req) => redirect(String(req.query.next), { localOnly: true, fallback: '/home', status: 303 }),
      ],
      ['GET /view', notes_controller.index],
      ['GET /view-status', notes_controller.invalid],
      ['GET /view-named', notes_controller.named],
      ['GET /view-bare', notes_controller.bare],
      ['GET /file', () => sendfile(join(dir, 'hello.txt'), { headers: { 'content-type': 'text/plain' } })],
      ['GET /response', () => new Response('raw web response', { status: 203, headers: { 'x-raw': '1' } })],
      ['GET /async', async () => json({ async: true })],
      ['GET /bad-return', (() => 42) as unknown as Handler],
      ['GET /bad-return-undefined', (() => undefined) as unknown as Handler],
    ],
  },
  old: {
    prefix: '/old',
    security: false,
    routes: [
      [
        'GET /json-created',
        () => json(201, { 'X-Extra': 'yes', 'Content-Type': 'application/vnd.api+json' }, { id: 7 }),
      ],
      ['GET /status-map', () => status(422, { 'x-reason': 'invalid' }, { errors: { name: ["can't be blank"] } })],
      ['GET /status-text', () => status(418, { 'content-type': 'text/plain' }, "I'm a teapot")],
      ['GET /redirect-301', () => redirect('/new-home', 301)],
      ['GET /view-named', notes_controller.oldNamed],
    ],
  },
  cookies: {
    prefix: '/cookie',
    security: false,
    routes: [
      ['GET /json', withCookie('json', () => json({ ok: true }, { status: 201 }))],
      ['GET /status', withCookie('status', () => status(204))],
      ['GET /redirect', withCookie('redirect', () => redirect('/next', { status: 303 }))],
      ['GET /view', withCookie('view', notes_controller.index)],
      ['GET /file', withCookie('file', () => sendfile(join(dir, 'hello.txt')))],
      ['GET /response', withCookie('response', () => new Response('raw'))],
      [
        'GET /error',
        withCookie('error', () => {
          throw httpError(409, { error: 'taken' })
        }),
      ],
      [
        'GET /own-header',
        withCookie('own-header', () => json({ ok: true }, { headers: { 'set-cookie': 'own=1; Path=/' } })),
      ],
      [
        'GET /again',
        (req) => {
          req.setCookie('theme', 'light')
          req.setCookie('theme', 'dark')
          return json({ ok: true })
        },
      ],
      [
        'GET /delete',
        (req) => {
          req.deleteCookie('gone', { path: '/account' })
          return status(204)
        },
      ],
      ['GET /read', (req) => json({ cookies: req.cookies })],
      [
        'GET /bad-name',
        (req) => {
          req.setCookie('bad name', 'x')
          return json({ ok: true })
        },
      ],
    ],
  },
  post: {
    prefix: '/post',
    security: false,
    plugins: [stampCookie()],
    routes: [
      ['GET /json', withCookie('json', () => json({ ok: true }))],
      ['GET /redirect', withCookie('redirect', () => redirect('/next'))],
      ['GET /view', notes_controller.index],
      ['GET /status', () => status(422, { errors: { name: ['is invalid'] } })],
    ],
  },
}

/** Spies on process warnings (silenced) from a fresh start: each test sees a first use again. */
let warnings: MockInstance<typeof process.emitWarning>
beforeEach(() => {
  forgetDeprecationWarnings()
  warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
})
afterEach(() => {
  warnings.mockRestore()
  forgetDeprecationWarnings()
})
/** The deprecation warnings emitted since the test started: `[code, message]`. */
const deprecations = () =>
  warnings.mock.calls
    .filter(([, options]) => (options as { type?: string } | undefined)?.type === 'DeprecationWarning')
    .map(([message, options]) => [(options as { code: string }).code, String(message)])

describeModes(
  'replies',
  {
    bootstrapApplication: 'replies',
    routes,
    controllers: { 'src/controllers/notes_controller.ts': notes_controller },
  },
  (t) => {
    const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().filter((c) => c.startsWith(`${name}=`))

    it('json(body): 200, application/json, encoded body', async () => {
      const res = await t.request('/json')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.text()).toBe('{"hello":"world","n":[1,2]}')
    })
    it('json(body, { status, headers }): given status, extra headers merged over the JSON content type', async () => {
      const res = await t.request('/json-created')
      expect(res.status).toBe(201)
      expect(res.headers.get('x-extra')).toBe('yes')
      expect(res.headers.get('content-type')).toBe('application/vnd.api+json')
      expect(await res.json()).toEqual({ id: 7 })
      const headersOnly = await t.request('/json-headers')
      expect(headersOnly.status).toBe(200)
      expect(headersOnly.headers.get('x-extra')).toBe('yes')
      expect(headersOnly.headers.get('content-type')).toBe('application/json; charset=utf-8')
    })
    it('status(code): bare status, empty body', async () => {
      const res = await t.request('/status')
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
      const ok = await t.request('/status-200')
      expect(ok.status).toBe(200)
      expect(ok.headers.get('content-length')).toBe('0')
      expect(ok.headers.get('transfer-encoding')).toBeNull()
      expect(await ok.text()).toBe('')
    })
    it('status(code, body, { headers }): an object body JSON-encoded, the headers sent', async () => {
      const res = await t.request('/status-map')
      expect(res.status).toBe(422)
      expect(res.headers.get('x-reason')).toBe('invalid')
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.json()).toEqual({ errors: { name: ["can't be blank"] } })
      const plain = await t.request('/status-body')
      expect(plain.status).toBe(404)
      expect(await plain.json()).toEqual({ error: 'not found' })
    })
    it('status(code, string, { headers }): a string body sent as is', async () => {
      const res = await t.request('/status-text')
      expect(res.status).toBe(418)
      expect(res.headers.get('content-type')).toBe('text/plain')
      expect(await res.text()).toBe("I'm a teapot")
    })
    it('redirect(path, { status, headers }): 302 by default, the given status, headers beside location', async () => {
      const res = await t.request('/redirect')
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/login')
      expect((await t.request('/redirect-301')).status).toBe(301)
      const withHeaders = await t.request('/redirect-headers')
      expect(withHeaders.status).toBe(303)
      expect(withHeaders.headers.get('location')).toBe('/next')
      expect(withHeaders.headers.get('cache-control')).toBe('no-store')
      expect(withHeaders.headers.get('content-length')).toBe('0')
    })
    it('redirect(to, { localOnly, fallback, status }): the check and the status in one options object', async () => {
      const local = await t.request('/redirect-local?next=/notes')
      expect([local.status, local.headers.get('location')]).toEqual([303, '/notes'])
      const away = await t.request('/redirect-local?next=//evil.example')
      expect([away.status, away.headers.get('location')]).toEqual([303, '/home'])
    })
    it("view(vars): renders the controller's default view (notes_controller → notes)", async () => {
      const res = await t.request('/view')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toBe('<h1>notes: All notes</h1>')
    })
    it('view(vars, { status, headers }): the default view with a status and headers', async () => {
      const res = await t.request('/view-status')
      expect(res.status).toBe(422)
      expect(res.headers.get('x-view')).toBe('default')
      expect(await res.text()).toBe('<h1>notes: Fix it</h1>')
    })
    it('view(name, vars, { status, headers }): renders the named view; view(name) with no variables', async () => {
      const res = await t.request('/view-named')
      expect(res.status).toBe(202)
      expect(res.headers.get('x-view')).toBe('yes')
      expect(await res.text()).toBe('<h1>notes_edit: Edit</h1>')
      const bare = await t.request('/view-bare')
      expect(bare.status).toBe(200)
      expect(await bare.text()).toBe('<h1>notes_edit: undefined</h1>')
    })
    it('sendfile and a web Response are escape hatches', async () => {
      const file = await t.request('/file')
      expect(file.status).toBe(200)
      expect(file.headers.get('content-length')).toBe('10')
      expect(await file.text()).toBe('hello file')
      const raw = await t.request('/response')
      expect(raw.status).toBe(203)
      expect(raw.headers.get('x-raw')).toBe('1')
      expect(await raw.text()).toBe('raw web response')
    })
    it('an async handler works like a sync one', async () => {
      expect(await (await t.request('/async')).json()).toEqual({ async: true })
    })
    it('a handler returning anything else is a 500 naming the controller and the value', async () => {
      t.expectLogged(/^500 on GET \/bad-return .*returned 42, which is not a reply/)
      t.expectLogged(/^500 on GET \/bad-return-undefined .*returned undefined, which is not a reply/)
      for (const path of ['/bad-return', '/bad-return-undefined']) {
        const res = await t.request(path)
        expect(res.status).toBe(500)
        expect(await res.json()).toEqual({ error: 'Internal Server Error' })
      }
    })

    // The forms before options came last: the same response as the new form, and one warning
    // per process that names the new form, however often the form is used.
    const oldForms: [path: string, code: string, names: RegExp][] = [
      ['/json-created', 'VELA_DEP_JSON_POSITIONAL', /write json\(body, \{ status, headers \}\)/],
      ['/status-map', 'VELA_DEP_STATUS_POSITIONAL', /write status\(code, body, \{ headers \}\)/],
      ['/status-text', 'VELA_DEP_STATUS_POSITIONAL', /write status\(code, body, \{ headers \}\)/],
      ['/redirect-301', 'VELA_DEP_REDIRECT_STATUS', /write redirect\(to, \{ status: code \}\)/],
      ['/view-named', 'VELA_DEP_VIEW_OPTION', /write view\(name, vars, \{ status, headers \}\)/],
    ]
    for (const [path, code, names] of oldForms) {
      it(`old form at ${path}: answers as the new form, and warns once (${code}) naming the new form`, async () => {
        const wire = async (res: Response) => ({
          status: res.status,
          headers: [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'),
          body: await res.text(),
        })
        const expected = await wire(await t.request(path))
        expect(deprecations()).toEqual([])
        for (let i = 0; i < 3; i++) expect(await wire(await t.request(`/old${path}`))).toEqual(expected)
        expect(deprecations()).toEqual([[code, expect.stringMatching(names)]])
      })
    }

    // Cookies through the request: on every kind of reply, beside the reply's own and a plugin's.
    for (const kind of ['json', 'status', 'redirect', 'view', 'file', 'response'] as const) {
      it(`req.setCookie on a ${kind} reply`, async () => {
        const res = await t.request(`/cookie/${kind}`)
        expect(res.status).toBeLessThan(400)
        expect(res.headers.getSetCookie()).toEqual([`kind=${kind}; Path=/; HttpOnly`])
      })
    }
    it('req.setCookie survives a thrown httpError: the error reply carries it', async () => {
      const res = await t.request('/cookie/error')
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual({ error: 'taken' })
      expect(res.headers.getSetCookie()).toEqual(['kind=error; Path=/; HttpOnly'])
    })
    it("a reply's own set-cookie header and req.setCookie's are both sent", async () => {
      const res = await t.request('/cookie/own-header')
      expect(res.headers.getSetCookie().sort()).toEqual(['kind=own-header; Path=/; HttpOnly', 'own=1; Path=/'])
    })
    it('setting a cookie again in the request replaces the earlier value', async () => {
      const res = await t.request('/cookie/again')
      expect(res.headers.getSetCookie()).toEqual(['theme=dark; Path=/'])
    })
    it('req.deleteCookie sends the cookie empty and expired, on its path', async () => {
      const res = await t.request('/cookie/delete')
      expect(res.status).toBe(204)
      expect(res.headers.getSetCookie()).toEqual(['gone=; Max-Age=0; Path=/account'])
    })
    it('req.cookies reads the cookies the request came with', async () => {
      const res = await t.request({ url: '/cookie/read', headers: { cookie: 'theme=dark; n=%C3%A9' } })
      expect(await res.json()).toEqual({ cookies: { theme: 'dark', n: 'é' } })
    })
    it('a cookie name a header cannot carry is the handler’s 500', async () => {
      t.expectLogged(/^500 on GET \/cookie\/bad-name .*argument name is invalid: bad name/)
      expect((await t.request('/cookie/bad-name')).status).toBe(500)
    })
    it("a post-request plugin's cookie joins the handler's, on any reply", async () => {
      const json = await t.request('/post/json')
      expect(json.headers.getSetCookie().sort()).toEqual([
        'kind=json; Path=/; HttpOnly',
        'stamp=post; Path=/; SameSite=Strict',
      ])
      const moved = await t.request('/post/redirect')
      expect(moved.status).toBe(302)
      expect(cookieOf(moved, 'stamp')).toEqual(['stamp=post; Path=/; SameSite=Strict'])
      expect(cookieOf(moved, 'kind')).toEqual(['kind=redirect; Path=/; HttpOnly'])
      const page = await t.request('/post/view')
      expect(await page.text()).toBe('<h1>notes: All notes</h1>')
      expect(page.headers.getSetCookie()).toEqual(['stamp=post; Path=/; SameSite=Strict'])
      const invalid = await t.request('/post/status')
      expect(invalid.status).toBe(422)
      expect(invalid.headers.getSetCookie()).toEqual(['stamp=post; Path=/; SameSite=Strict'])
    })
  },
  {
    // A stand-in renderer: the real one (liquidjs) belongs to the views module; this proves the contract.
    renderView: async (reply, req) =>
      `<h1>${reply.view ?? req.route.controller.replace(/_controller$/, '')}: ${String(reply.vars.title)}</h1>`,
  },
)

describeModes('replies with useStacktrace', { bootstrapApplication: 'replies', useStacktrace: true, routes }, (t) => {
  it('the 500 for a bad return names the controller and what it returned', async () => {
    t.expectLogged(/^500 on GET \/bad-return .*returned 42, which is not a reply/)
    const res = await t.request('/bad-return')
    const body = (await res.json()) as { error: string; stack: string[] }
    expect(res.status).toBe(500)
    expect(body.error).toBe(
      'routes/replies.anonymous returned 42, which is not a reply: return json(…), status(…), redirect(…), view(…) or a Response',
    )
    expect(body.stack.length).toBeGreaterThan(1)
  })
})

it('reads the arguments as the overloads do: an object of headers alone as the last argument is options', () => {
  expect(status(200, { a: 'b' }, { headers: { 'x-a': 'b' } })).toMatchObject({
    body: { a: 'b' },
    headers: { 'x-a': 'b' },
  })
  expect(status(200, 'text', undefined)).toMatchObject({ body: 'text', headers: undefined })
  expect(status(200, {}, {})).toMatchObject({ body: {}, headers: undefined })
  expect(deprecations()).toEqual([])
  // A body that cannot be options (a string, an array, an object with other keys) is the old form's.
  expect(status(200, { 'x-a': 'b' }, ['list'])).toMatchObject({ body: ['list'], headers: { 'x-a': 'b' } })
  expect(json(200, {}, null)).toMatchObject({ status: 200, body: null, headers: {} })
  expect(deprecations().map(([code]) => code)).toEqual(['VELA_DEP_STATUS_POSITIONAL', 'VELA_DEP_JSON_POSITIONAL'])
  // A view named by a string; vars alone are the default view's.
  expect(view('notes_edit')).toMatchObject({ view: 'notes_edit', vars: {}, status: 200 })
  expect(view()).toMatchObject({ view: undefined, vars: {}, status: 200 })
})

it('keeps the literal status typed clients read, in the new forms and the old', () => {
  expectTypeOf(json({ id: 1 })).toEqualTypeOf<JsonReply<{ id: number }, 200>>()
  expectTypeOf(json({ id: 1 }, { status: 201 })).toEqualTypeOf<JsonReply<{ id: number }, 201>>()
  expectTypeOf(json({ id: 1 }, { headers: { 'x-a': 'b' } })).toEqualTypeOf<JsonReply<{ id: number }, 200>>()
  expectTypeOf(status(204)).toEqualTypeOf<StatusReply<undefined, 204>>()
  expectTypeOf(status(404, { error: 'gone' })).toEqualTypeOf<StatusReply<{ error: string }, 404>>()
  expectTypeOf(status(418, 'tea', { headers: {} })).toEqualTypeOf<StatusReply<string, 418>>()
  expectTypeOf(redirect('/a', { status: 303 })).toEqualTypeOf<RedirectReply>()
  // The old forms type as before (and are marked deprecated in editors).
  expectTypeOf(json(201, {}, { id: 1 })).toEqualTypeOf<JsonReply<{ id: number }, 201>>()
  expectTypeOf(status(422, {}, { errors: {} })).toEqualTypeOf<StatusReply<{ errors: {} }, 422>>()
  expect(deprecations().length).toBe(2)
})
