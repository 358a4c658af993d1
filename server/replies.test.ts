// Handler return values (the reply helpers): exact statuses, headers and bodies.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeModes } from '../test/support/modes.ts'
import { json, redirect, sendfile, status, view } from './replies.ts'
import type { Handler, RouteGroup } from './contracts/routes.ts'

const dir = mkdtempSync(join(tmpdir(), 'vela-replies-'))
writeFileSync(join(dir, 'hello.txt'), 'hello file')

const notes_controller = {
  index: () => view({ title: 'All notes' }),
  named: () => view({ title: 'Edit' }, { view: 'notes_edit', status: 202, headers: { 'x-view': 'yes' } }),
} satisfies Record<string, Handler>

const routes: Record<string, RouteGroup> = {
  replies: {
    prefix: '',
    security: false,
    routes: [
      ['GET /json', () => json({ hello: 'world', n: [1, 2] })],
      [
        'GET /json-created',
        () => json(201, { 'X-Extra': 'yes', 'Content-Type': 'application/vnd.api+json' }, { id: 7 }),
      ],
      ['GET /status', () => status(204)],
      ['GET /status-200', () => status(200)],
      ['GET /status-map', () => status(422, { 'x-reason': 'invalid' }, { errors: { name: ["can't be blank"] } })],
      ['GET /status-text', () => status(418, { 'content-type': 'text/plain' }, "I'm a teapot")],
      ['GET /redirect', () => redirect('/login')],
      ['GET /redirect-301', () => redirect('/new-home', 301)],
      ['GET /view', notes_controller.index],
      ['GET /view-named', notes_controller.named],
      ['GET /file', () => sendfile(join(dir, 'hello.txt'), { headers: { 'content-type': 'text/plain' } })],
      ['GET /response', () => new Response('raw web response', { status: 203, headers: { 'x-raw': '1' } })],
      ['GET /async', async () => json({ async: true })],
      ['GET /bad-return', (() => 42) as unknown as Handler],
      ['GET /bad-return-undefined', (() => undefined) as unknown as Handler],
    ],
  },
}

describeModes(
  'replies',
  { bootstrapApplication: 'replies', routes, controllers: { 'src/controllers/notes_controller.ts': notes_controller } },
  (t) => {
    it('json(data): 200, application/json, encoded body', async () => {
      const res = await t.request('/json')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.text()).toBe('{"hello":"world","n":[1,2]}')
    })
    it('json(status, headers, body): given status, extra headers merged over the JSON content type', async () => {
      const res = await t.request('/json-created')
      expect(res.status).toBe(201)
      expect(res.headers.get('x-extra')).toBe('yes')
      expect(res.headers.get('content-type')).toBe('application/vnd.api+json')
      expect(await res.json()).toEqual({ id: 7 })
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
    it('status(code, headers, map): map body JSON-encoded', async () => {
      const res = await t.request('/status-map')
      expect(res.status).toBe(422)
      expect(res.headers.get('x-reason')).toBe('invalid')
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await res.json()).toEqual({ errors: { name: ["can't be blank"] } })
    })
    it('status(code, headers, string): string body sent as is', async () => {
      const res = await t.request('/status-text')
      expect(res.status).toBe(418)
      expect(res.headers.get('content-type')).toBe('text/plain')
      expect(await res.text()).toBe("I'm a teapot")
    })
    it('redirect(path): 302 with location', async () => {
      const res = await t.request('/redirect')
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/login')
      expect((await t.request('/redirect-301')).status).toBe(301)
    })
    it("view(vars): renders the controller's default view (notes_controller → notes)", async () => {
      const res = await t.request('/view')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toBe('<h1>notes: All notes</h1>')
    })
    it('view(vars, { view, status, headers }): renders the named view', async () => {
      const res = await t.request('/view-named')
      expect(res.status).toBe(202)
      expect(res.headers.get('x-view')).toBe('yes')
      expect(await res.text()).toBe('<h1>notes_edit: Edit</h1>')
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
