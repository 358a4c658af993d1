// Routing a request to its route by path, then by method: the route, a 404, a 405 whose `allow`
// lists the methods the path's routes name, HEAD answered by GET, ALL, static and WebSocket routes.
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import type { StaticRouteHandler } from '../contracts/routes.ts'
import { json, status } from '../replies.ts'
import { inject } from '../testing/index.ts'
import { defineWebSocket } from '../websocket/define.ts'

const said = (what: string) => (req: { method: string }) => json({ what, method: req.method })
const files: StaticRouteHandler = { kind: 'vela.static', handle: (req) => json({ file: req.pathInfo }) }

describeModes(
  'routing a request',
  {
    bootstrapApplication: 'route-request',
    routes: {
      'src/routes/r.ts': {
        prefix: '/api',
        security: false,
        routes: [
          ['GET /notes', said('index')],
          ['POST /notes', said('create')],
          ['GET /notes/:id', (req) => json({ id: req.bindings.id })],
          ['PUT /notes/:id', said('update')],
          ['DELETE /notes/:id', said('delete')],
          ['GET /pages', said('page')],
          ['HEAD /pages', () => status(200, { 'x-head': 'own' }, '')],
          ['ALL /hooks', said('hook')],
          ['/legacy', said('legacy'), { methods: ['get', 'post'] }],
          ['/files/[...]', files],
          ['/ws', defineWebSocket({}), { protocol: 'ws' }],
        ],
      },
    },
  },
  (t) => {
    const call = async (method: string, url: string) => {
      const res = await t.request({ method, url })
      return { status: res.status, allow: res.headers.get('allow'), body: method === 'HEAD' ? '' : await res.text() }
    }

    it('the route of the path and method', async () => {
      expect(await (await t.request('/api/notes')).json()).toEqual({ what: 'index', method: 'GET' })
      expect(await (await t.request({ method: 'POST', url: '/api/notes' })).json()).toEqual({
        what: 'create',
        method: 'POST',
      })
      expect(await (await t.request('/api/notes/7')).json()).toEqual({ id: '7' })
      expect(await (await t.request({ method: 'DELETE', url: '/api/notes/7' })).json()).toMatchObject({
        what: 'delete',
      })
    })
    it('no route has the path: 404', async () => {
      expect((await call('GET', '/api/nothing')).status).toBe(404)
      expect((await call('POST', '/nowhere')).status).toBe(404)
    })
    it("a method no route of the path names: 405 with allow, from the routes' path strings", async () => {
      expect(await call('PATCH', '/api/notes')).toMatchObject({ status: 405, allow: 'GET, HEAD, POST' })
      expect(await call('POST', '/api/notes/7')).toMatchObject({ status: 405, allow: 'GET, HEAD, PUT, DELETE' })
      expect(await call('DELETE', '/api/legacy')).toMatchObject({ status: 405, allow: 'GET, POST, HEAD' })
    })
    it('HEAD is answered by the GET route, without a body, unless a route declares HEAD', async () => {
      const head = await t.request({ method: 'HEAD', url: '/api/notes/7' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
      const own = await t.request({ method: 'HEAD', url: '/api/pages' })
      expect(own.headers.get('x-head')).toBe('own')
    })
    it('an ALL route answers every standard method', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        expect(await (await t.request({ method, url: '/api/hooks' })).json()).toEqual({ what: 'hook', method })
      }
    })
    it('static-file and WebSocket routes answer GET only: other methods are a 405', async () => {
      expect(await (await t.request('/api/files/a.txt')).json()).toEqual({ file: 'a.txt' })
      expect(await call('POST', '/api/files/a.txt')).toMatchObject({ status: 405, allow: 'GET, HEAD' })
      expect(await call('GET', '/api/ws')).toMatchObject({ status: 426 })
      expect(await call('POST', '/api/ws')).toMatchObject({ status: 405, allow: 'GET, HEAD' })
    })
    it('an invalid percent-escape in a parameter: 400', async () => {
      const res = await call('GET', '/api/notes/%E0%A4%A')
      expect(res.status).toBe(400)
      expect(res.body).toContain('invalid percent-encoding in the URL path')
    })
  },
)

it.each(['compiled', 'tree'] as const)('both dispatch backends route by path, then method [%s]', async (backend) => {
  const app = createApp(
    {
      bootstrapApplication: 'backends',
      dispatchBackend: backend,
      routes: { r: { prefix: '', security: false, routes: [['PUT /x/:id', (req) => json(req.bindings)]] } },
    },
    { env: {} },
  )
  expect(await (await inject(app, { method: 'PUT', url: '/x/1' })).json()).toEqual({ id: '1' })
  const res = await inject(app, '/x/1')
  expect([res.status, res.headers.get('allow')]).toEqual([405, 'PUT'])
})
