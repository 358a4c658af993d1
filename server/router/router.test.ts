// Routing rules: static over params, trailing slash, [...],
// methods, duplicates, handler identity, route sources; both dispatch backends. How a route names
// its method: route-method.test.ts; 404 / 405 / preflight: route-request, unrouted, preflight tests.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import { json, status } from '../replies.ts'
import type { RouteGroup, StaticRouteHandler } from '../contracts/routes.ts'

const notes_controller = {
  index: () => json({ action: 'index' }),
  new: () => json({ action: 'new' }),
  show: (req: { bindings: Record<string, string> }) => json({ action: 'show', id: req.bindings.id }),
  edit: (req: { bindings: Record<string, string> }) => json({ action: 'edit', id: req.bindings.id }),
}
const files: StaticRouteHandler = {
  kind: 'vela.static',
  handle: (req) => json({ pathInfo: req.pathInfo, bindings: req.bindings }),
}
const identity = (req: { route: { controller: string; action: string; path: string; prefix: string } }) =>
  json(req.route)

const notes: RouteGroup = {
  prefix: '/notes',
  security: false,
  routes: [
    ['GET /', notes_controller.index],
    ['GET /new', notes_controller.new],
    ['GET /:id', notes_controller.show],
    ['GET /:id/edit', notes_controller.edit],
  ],
}
const misc: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /heartbeat', () => status(200)],
    ['/docs/[...]', files],
    ['GET /who', identity],
    ['GET /who/:controller', notes_controller.show],
    ['GET /users/:user_id/posts/:post_id', (req) => json(req.bindings)],
    ['ALL /any', (req) => json({ method: req.method })],
  ],
}

for (const backend of ['compiled', 'tree'] as const) {
  describeModes(
    `routing [${backend}]`,
    {
      bootstrapApplication: 'router',
      dispatchBackend: backend,
      routes: {
        'src/routes/notes.ts': { default: notes },
        'src/routes/misc.ts': (env: string) => (env === 'dev' ? [misc] : []),
      },
      controllers: { 'src/controllers/notes_controller.ts': notes_controller },
    },
    (t) => {
      it('static segments win over :params (/notes/new is not /notes/:id)', async () => {
        expect(await (await t.request('/notes/new')).json()).toEqual({ action: 'new' })
        expect(await (await t.request('/notes/12')).json()).toEqual({ action: 'show', id: '12' })
        expect(await (await t.request('/notes/12/edit')).json()).toEqual({ action: 'edit', id: '12' })
      })
      it('a trailing slash matches the same route; the group prefix with "/" is the group root', async () => {
        expect(await (await t.request('/notes')).json()).toEqual({ action: 'index' })
        expect(await (await t.request('/notes/')).json()).toEqual({ action: 'index' })
        expect(await (await t.request('/notes/new/')).json()).toEqual({ action: 'new' })
        expect((await t.request('/heartbeat/')).status).toBe(200)
      })
      it('bindings are URL-decoded strings, several per path', async () => {
        expect(await (await t.request('/notes/caf%C3%A9%20au%20lait')).json()).toEqual({
          action: 'show',
          id: 'café au lait',
        })
        expect(await (await t.request('/users/7/posts/99')).json()).toEqual({ user_id: '7', post_id: '99' })
      })
      it('[...] captures the rest of the path (decoded) as pathInfo, including nothing', async () => {
        expect(await (await t.request('/docs/css/app%20x.css')).json()).toEqual({
          pathInfo: 'css/app x.css',
          bindings: {},
        })
        expect(await (await t.request('/docs')).json()).toEqual({ pathInfo: '', bindings: {} })
        expect(await (await t.request('/docs/')).json()).toEqual({ pathInfo: '', bindings: {} })
      })
      it('methods restrict; ALL means every standard method; HEAD follows GET without a body', async () => {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
          expect(await (await t.request({ method, url: '/any' })).json()).toEqual({ method })
        }
        expect((await t.request({ method: 'POST', url: '/notes/new' })).status).toBe(405)
        const head = await t.request({ method: 'HEAD', url: '/notes/12' })
        expect(head.status).toBe(200)
        expect(await head.text()).toBe('')
      })
      it('every handler knows its { controller, action }; inline functions report the route file and anonymous', async () => {
        expect(await (await t.request('/who')).json()).toEqual({
          path: '/who',
          prefix: '',
          controller: 'routes/misc',
          action: 'anonymous',
        })
      })
      it('route modules may export a group, a list, or a function of the environment', async () => {
        expect((await t.request('/heartbeat')).status).toBe(200)
      })
    },
  )
}

it('the compiled route table carries controller and action for every route', () => {
  const app = createApp({
    bootstrapApplication: 'x',
    routes: { notes },
    controllers: { 'src/controllers/notes_controller.ts': notes_controller },
  })
  expect(app.routeTable.routes.map((r) => `${r.methods} ${r.path} ${r.info.controller}.${r.info.action}`)).toEqual([
    'GET /notes notes_controller.index',
    'GET /notes/new notes_controller.new',
    'GET /notes/:id notes_controller.show',
    'GET /notes/:id/edit notes_controller.edit',
  ])
})

it('the same method and path declared twice is a start-up error naming both places', () => {
  const dup = (a: RouteGroup, b: RouteGroup) => () =>
    createApp({ bootstrapApplication: 'x', routes: { 'src/routes/a.ts': a, 'src/routes/b.ts': b } })
  expect(dup(notes, { prefix: '', security: false, routes: [['GET /notes/:note_id', () => status(200)]] })).toThrow(
    'route GET /notes/:note_id is declared twice: at src/routes/a.ts group 0 route 2 and at src/routes/b.ts group 0 route 0',
  )
  // Different methods on one path are fine; an ALL route clashes with any method.
  expect(dup(notes, { prefix: '/notes', security: false, routes: [['DELETE /:id', () => status(200)]] })).not.toThrow()
  expect(dup(notes, { prefix: '/notes', security: false, routes: [['ALL /new/', () => status(200)]] })).toThrow(
    /route GET \/notes\/new is declared twice/,
  )
})

it('bad route declarations are start-up errors that say where', () => {
  const mk = (routes: unknown) => () =>
    createApp({
      bootstrapApplication: 'x',
      routes: { 'src/routes/bad.ts': { prefix: '/p', security: false, routes: routes as never } },
    })
  expect(mk([['/x', 'not a function']])).toThrow(
    "src/routes/bad.ts group 0 route 0: handler must be a function, staticDir(...) or, with protocol 'ws', a WebSocket handler",
  )
  expect(mk([['/x', () => status(200), { protocol: 'ws' }]])).toThrow(
    /route 0: a ws route needs a handler made by defineWebSocket/,
  )
  expect(() =>
    createApp({ bootstrapApplication: 'x', routes: { r: { prefix: '/p', security: 'yes' as never, routes: [] } } }),
  ).toThrow(/security must be false, a function, or { scheme, check }/)
})
