// The request object (every field a handler reads) reads the same in-process and over HTTP, where plain route
// hits run straight from node's request and the h3 event is made only when something uses it.
import { expect, it } from 'vitest'
import { describeModes } from '../test/support/modes.ts'
import { requestPlugin } from './plugins/request.ts'
import { json } from './replies.ts'
import type { VelaRequest } from './request.ts'

const describeRequest = (req: VelaRequest) =>
  json({
    method: req.method,
    path: req.path,
    query: req.query,
    bindings: req.bindings,
    params: req.params,
    json: req.json ?? null,
    cookies: req.cookies,
    peer: req.peer,
    host: req.host,
    port: req.port,
    scheme: req.scheme,
    header: req.header('x-custom') ?? null,
    headerAnyCase: req.header('X-Custom') ?? null,
    viaHeaders: req.headers.get('x-custom'),
    url: req.url.pathname + req.url.search,
    route: req.route,
  })

describeModes(
  'request object',
  {
    bootstrapApplication: 'request-object',
    plugins: [requestPlugin({ json: true })],
    routes: {
      r: {
        prefix: '/r',
        security: false,
        routes: [
          ['ALL /:id', describeRequest],
          ['GET /:id/cookie', (req) => (req.setCookie('flavour', 'oat', { httpOnly: true }), json({ set: true }))],
        ],
      },
    },
  },
  (t) => {
    it('every field of the request object, for a GET with query, cookies and headers', async () => {
      const res = await t.request({
        url: '/r/42?page=2&tag=a&tag=b',
        headers: { cookie: 'a=1; b=two', 'x-custom': 'yes' },
      })
      expect(res.status).toBe(200)
      const body = (await res.json()) as Record<string, unknown>
      expect(body).toEqual({
        method: 'GET',
        path: '/r/42',
        query: { page: '2', tag: ['a', 'b'] },
        bindings: { id: '42' },
        params: {},
        json: null,
        cookies: { a: '1', b: 'two' },
        peer: '127.0.0.1',
        // fetch() sends the Host it connected to (it may not be overridden).
        host: t.mode === 'http' ? '127.0.0.1' : 'localhost',
        port: t.mode === 'http' ? expect.any(Number) : 80,
        scheme: 'http',
        header: 'yes',
        headerAnyCase: 'yes',
        viaHeaders: 'yes',
        url: '/r/42?page=2&tag=a&tag=b',
        route: { path: '/r/:id', prefix: '/r', controller: 'routes/r', action: 'anonymous' },
      })
    })
    it('a decoded JSON body', async () => {
      const res = await t.request({ method: 'POST', url: '/r/7', body: { name: 'Widget' } })
      expect(await res.json()).toMatchObject({ method: 'POST', params: { name: 'Widget' }, json: { name: 'Widget' } })
    })
    it('headers set through h3 utilities on req.event reach the response', async () => {
      const res = await t.request('/r/1/cookie')
      expect(res.headers.get('set-cookie')).toBe('flavour=oat; Path=/; HttpOnly')
    })
  },
)
