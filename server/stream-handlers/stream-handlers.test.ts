// Stream handlers written by users (defineStreamHandler): the order they wrap requests in, 404s
// included; node-shaped (`wrapNode`) and fetch-only handlers alike; and a handler that throws or
// rejects costs that request a 500, never the server. Every case in-process and over HTTP.
import { expect, it } from 'vitest'
import WebSocket from 'ws'
import { describeModes } from '../../test/support/modes.ts'
import { json } from '../replies.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { startTestServer } from '../testing/index.ts'
import { defineWebSocket } from '../websocket/define.ts'
import { createApp } from '../app/create-app.ts'
import type { StreamHandler } from './stream-handlers.ts'
import { defineStreamHandler } from './stream-handlers.ts'
import { strictLog } from '../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const seen: string[] = []
const group: RouteGroup = { prefix: '', security: false, routes: [['GET /hello', () => json({ hello: true })]] }

/** Records its name on the way in, in both shapes. */
const recorder = (name: string, shapes: 'both' | 'fetch-only'): StreamHandler =>
  defineStreamHandler({
    name,
    wrap: (next) => (request) => (seen.push(name), next(request)),
    ...(shapes === 'both' ? { wrapNode: (next) => (req, res) => (seen.push(name), next(req, res)) } : {}),
  })

/** Throws (or, fetch-shaped, rejects) for requests carrying `x-fail`; passes the rest through. */
const failing = (shapes: 'both' | 'fetch-only'): StreamHandler =>
  defineStreamHandler({
    name: 'failing',
    wrap: (next) => (request) => {
      const how = request.headers.get('x-fail')
      if (how === 'throw') throw new Error('stream handler threw')
      if (how === 'reject') return Promise.reject(new Error('stream handler rejected'))
      return next(request)
    },
    ...(shapes === 'both'
      ? {
          wrapNode: (next) => (req, res) => {
            if (req.headers['x-fail'] === 'throw') throw new Error('stream handler threw')
            next(req, res)
          },
        }
      : {}),
  })

for (const shapes of ['both', 'fetch-only'] as const) {
  describeModes(
    `user stream handlers (${shapes === 'both' ? 'with wrapNode' : 'fetch-only'})`,
    {
      bootstrapApplication: 'streams',
      server: { streamHandlers: [recorder('outer', shapes), recorder('inner', shapes), 'default'] },
      routes: { r: group },
    },
    (t) => {
      it('wrap every request, outermost first, 404s included', async () => {
        seen.length = 0
        expect(await (await t.request('/hello')).json()).toEqual({ hello: true })
        expect((await t.request('/missing')).status).toBe(404)
        expect(seen).toEqual(['outer', 'inner', 'outer', 'inner'])
      })
    },
  )
}

for (const shapes of ['both', 'fetch-only'] as const) {
  describeModes(
    `a stream handler that fails (${shapes === 'both' ? 'with wrapNode' : 'fetch-only'})`,
    { bootstrapApplication: 'streams', server: { streamHandlers: [failing(shapes), 'default'] }, routes: { r: group } },
    (t) => {
      it('answers that request with a 500 and keeps serving', async () => {
        t.expectLogged(/^500: a stream handler failed: Error: stream handler threw$/)
        if (!(shapes === 'both' && t.mode === 'http'))
          t.expectLogged(/^500: a stream handler failed: Error: stream handler rejected$/)
        // A node-shaped handler has no promise to reject; over HTTP it only throws.
        const ways = shapes === 'both' && t.mode === 'http' ? ['throw'] : ['throw', 'reject']
        for (const how of ways) {
          const res = await t.request({ url: '/hello', headers: { 'x-fail': how, accept: 'application/json' } })
          expect(res.status, how).toBe(500)
          expect(await res.json()).toEqual({ error: 'Internal Server Error' })
          expect(await (await t.request('/hello')).json()).toEqual({ hello: true })
        }
      })
    },
  )
}

it("'default' anywhere but last is a start-up error naming the handlers that would never run", () => {
  expect(() =>
    createApp(
      {
        bootstrapApplication: 'x',
        server: { streamHandlers: ['default', recorder('late', 'both')] },
        routes: { r: group },
      },
      { env: {} },
    ),
  ).toThrow("server.streamHandlers: 'default' must come last; late would never run")
})

it('a wrapUpgrade that throws refuses that WebSocket upgrade with a 500 and keeps serving', async () => {
  const throwing = defineStreamHandler({
    name: 'throwing-upgrade',
    wrap: (next) => next,
    wrapUpgrade: () => () => {
      throw new Error('upgrade handler threw')
    },
  })
  const app = createApp(
    {
      bootstrapApplication: 'streams',
      server: { streamHandlers: [throwing, 'default'] },
      routes: { r: [{ ...group, routes: [...group.routes, ['/ws', defineWebSocket({}), { protocol: 'ws' }]] }] },
    },
    { env: {}, log: logs.log },
  )
  const server = await startTestServer(app)
  try {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('open', () => resolve(101))
      ws.once('error', () => resolve(-1))
    })
    expect(status).toBe(500)
    expect(await (await server.request('/hello')).json()).toEqual({ hello: true })
  } finally {
    await server.close({ timeoutMs: 1000 })
  }
})
