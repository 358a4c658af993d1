// matchedRoute: a stream handler learns where each request was routed, on every path a request
// can take (in-process fetch, node's direct path, node through the fetch path when compression
// is on), for every group whatever its plugins; unrouted requests have none.
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { until } from '../../test/support/until.ts'
import { json } from '../replies.ts'
import { inject, startTestServer } from '../testing/index.ts'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../app/config.ts'
import { matchedRoute } from './matched-route.ts'
import { defineStreamHandler } from './stream-handlers.ts'
import { strictLog } from '../../test/support/logs.ts'

// The apps below log through it: a test fails on an error it did not declare (test/support/logs.ts).
const logs = strictLog()

const products_controller = { show: () => json({ ok: true }) }

function appRecording(seen: string[], compress = false) {
  const note = (request: Request | IncomingMessage) => {
    const route = matchedRoute(request)
    seen.push(route ? `${route.path} ${route.controller}.${route.action}` : 'unrouted')
  }
  const recorder = defineStreamHandler({
    name: 'recorder',
    wrap: (next) => async (request) => {
      const res = await next(request)
      note(request)
      return res
    },
    wrapNode: (next) => (req, res) => {
      res.once('finish', () => note(req))
      next(req, res)
    },
  })
  const config: AppConfig = {
    bootstrapApplication: 'shop',
    server: { streamHandlers: [recorder, 'default'], options: { compress } },
    routes: {
      'src/routes/api.ts': {
        prefix: '/api',
        security: false,
        plugins: [],
        routes: [['GET /products/:id', products_controller.show]],
      },
    },
    controllers: { 'src/controllers/products_controller.ts': products_controller },
  }
  return createApp(config, { env: {}, log: logs.log })
}

describe('matchedRoute', () => {
  it('in-process: the route of a routed request, nothing for a 404 or a 405', async () => {
    const seen: string[] = []
    const app = appRecording(seen)
    for (const [url, method] of [
      ['/api/products/1', 'GET'],
      ['/nowhere', 'GET'],
      ['/api/products/1', 'DELETE'],
    ] as const) {
      await (await inject(app, { url, method })).text()
    }
    expect(seen).toEqual(['/api/products/:id products_controller.show', 'unrouted', 'unrouted'])
  })

  for (const compress of [false, true]) {
    it(`over HTTP on node's ${compress ? 'fetch' : 'direct'} path`, async () => {
      const seen: string[] = []
      const server = await startTestServer(appRecording(seen, compress))
      try {
        expect((await server.request('/api/products/2')).status).toBe(200)
        expect((await server.request('/api/missing')).status).toBe(404)
        await until('both requests recorded', () => seen.length >= 2).catch(() => {}) // a missing one fails below
        expect(seen).toEqual(['/api/products/:id products_controller.show', 'unrouted'])
      } finally {
        await server.close()
      }
    })
  }
})
