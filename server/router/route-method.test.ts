// A route's method: in its path string ('GET /notes'), ALL for every method, or the older
// `methods` option; a handler route without one is refused at start, naming the route.
import { describe, expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import type { Route, RouteGroup, RouteOptions, StaticRouteHandler } from '../contracts/routes.ts'
import { json, status } from '../replies.ts'
import { defineWebSocket } from '../websocket/define.ts'
import { STANDARD_METHODS, routeMethods, splitRoutePath } from './route-method.ts'

const ok = () => status(200)
const files: StaticRouteHandler = { kind: 'vela.static', handle: ok }
const site = { at: 'src/routes/api.ts group 0 route 3', prefix: '/api' }
const methodsOf = (declared: string, options: RouteOptions = {}, kind: 'http' | 'ws' | 'static' = 'http') =>
  routeMethods(declared, options, kind, site)

/** The route table's `METHODS path` lines for one group of `routes`. */
const table = (routes: RouteGroup['routes'], prefix = '') =>
  createApp({
    bootstrapApplication: 'x',
    routes: { 'src/routes/r.ts': { prefix, security: false, routes } },
  }).routeTable.routes.map((r) => `${r.methods === 'all' ? 'ALL' : r.methods.join(',')} ${r.path} ${r.kind}`)

/** The start-up error of one group of `routes`. */
const refusal =
  (routes: readonly unknown[], prefix = '/api') =>
  () =>
    createApp({
      bootstrapApplication: 'x',
      routes: { 'src/routes/api.ts': { prefix, security: false, routes: routes as RouteGroup['routes'] } },
    })

describe('splitRoutePath', () => {
  it('reads the first word as the method when it does not start with /', () => {
    expect(splitRoutePath('GET /notes/:id')).toEqual({ method: 'GET', path: '/notes/:id' })
    expect(splitRoutePath('DELETE   /notes')).toEqual({ method: 'DELETE', path: '/notes' })
    expect(splitRoutePath('get /x')).toEqual({ method: 'get', path: '/x' })
    expect(splitRoutePath('/notes')).toEqual({ method: undefined, path: '/notes' })
    expect(splitRoutePath('')).toEqual({ method: undefined, path: '' })
  })
})

describe('routeMethods', () => {
  it('each standard method in the path string, uppercase', () => {
    for (const m of STANDARD_METHODS) expect(methodsOf(`${m} /notes`)).toEqual({ path: '/notes', methods: [m] })
  })
  it('ALL answers every method', () => {
    expect(methodsOf('ALL /hooks')).toEqual({ path: '/hooks', methods: 'all' })
  })
  it('the older options.methods form, one or several lowercase methods', () => {
    expect(methodsOf('/notes', { methods: ['get'] })).toEqual({ path: '/notes', methods: ['GET'] })
    expect(methodsOf('/notes/:id', { methods: ['put', 'patch'] })).toEqual({
      path: '/notes/:id',
      methods: ['PUT', 'PATCH'],
    })
  })
  it('static-file and WebSocket routes answer GET without saying so, and may say GET', () => {
    expect(methodsOf('/docs/[...]', {}, 'static')).toEqual({ path: '/docs/[...]', methods: ['GET'] })
    expect(methodsOf('/ws', { protocol: 'ws' }, 'ws')).toEqual({ path: '/ws', methods: ['GET'] })
    expect(methodsOf('GET /ws', { protocol: 'ws' }, 'ws')).toEqual({ path: '/ws', methods: ['GET'] })
  })
})

describe('a route without a method is refused at start', () => {
  it('naming the file, group, prefix and path, and saying what to write', () => {
    expect(
      refusal([
        ['GET /notes', ok],
        ['/notes/:id', ok],
      ]),
    ).toThrow(
      'src/routes/api.ts group 0 route 1 (prefix "/api", path "/notes/:id"): the route names no method. ' +
        "Write it in the path: ['GET /notes/:id', handler] (or 'POST', 'PUT', …; 'ALL /notes/:id' answers every method). " +
        'A route without a method no longer answers every method',
    )
  })
  it('with its code, VELA_ERR_ROUTE', () => {
    expect(refusal([['/x', ok]])).toThrow(expect.objectContaining({ name: 'VelaError', code: 'VELA_ERR_ROUTE' }))
  })
  it('an empty methods list names no method either', () => {
    expect(refusal([['/x', ok, { methods: [] }]])).toThrow(
      `src/routes/api.ts group 0 route 0 (prefix "/api", path "/x"): options.methods is empty: name the method in the path, e.g. 'GET /x'`,
    )
  })
  it('methods that is not a list, such as "all"', () => {
    expect(refusal([['/x', ok, { methods: 'all' as never }]])).toThrow(
      '(prefix "/api", path "/x"): options.methods must be a list: name the method in the path, \'GET /x\' (ALL for every method)',
    )
  })
  it('a lowercase method, with the uppercase spelling to use', () => {
    expect(refusal([['get /x', ok]])).toThrow(
      `(prefix "/api", path "get /x"): write the method in uppercase, as on the wire: 'GET /x'`,
    )
  })
  it('an unknown method, listing the known ones', () => {
    expect(refusal([['GTE /x', ok]])).toThrow(
      '(prefix "/api", path "GTE /x"): unknown method "GTE": use one of GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, ALL',
    )
    expect(refusal([['GET|HEAD /x', ok]])).toThrow(/unknown method "GET\|HEAD".*for two methods, declare two routes/)
  })
  it('a method in the path and in options.methods', () => {
    expect(refusal([['POST /x', ok, { methods: ['post'] }]])).toThrow(
      '(prefix "/api", path "POST /x"): the method is in the path and in options.methods: keep only \'POST /x\'',
    )
  })
  it('a static-file or WebSocket route with a method other than GET', () => {
    expect(refusal([['POST /docs/[...]', files]])).toThrow(
      "a staticDir route answers GET and HEAD: leave the method out or write 'GET /docs/[...]'",
    )
    expect(refusal([['ALL /ws', defineWebSocket({}), { protocol: 'ws' }]])).toThrow(
      "a WebSocket route is opened by a GET: leave the method out or write 'GET /ws'",
    )
  })
  it('status routes need no method', () => {
    expect(
      table([
        [404, () => json({ error: 'none' })],
        ['GET /a', ok],
      ]),
    ).toEqual(['GET /a http'])
  })
})

it('the route table holds the method and the path apart, whichever form declared them', () => {
  const routes: Route[] = [
    ['GET /', ok],
    ['POST /', ok],
    ['ALL /hooks', ok],
    ['/legacy', ok, { methods: ['put', 'patch'] }],
    ['/docs/[...]', files],
    ['/ws', defineWebSocket({}), { protocol: 'ws' }],
  ]
  expect(table(routes, '/api')).toEqual([
    'GET /api http',
    'POST /api http',
    'ALL /api/hooks http',
    'PUT,PATCH /api/legacy http',
    'GET /api/docs/[...] static',
    'GET /api/ws ws',
  ])
})
