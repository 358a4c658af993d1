// The built-in health endpoints (health.ts): answered before routing, plugins and security, on
// the web path (inject) and node's (a real listener); their paths from `server.health`; refused
// config. The process-level readiness case (SIGTERM) is in test/faults/shutdown.test.ts.
import { describe, expect, it } from 'vitest'
import { createApp } from '../app/create-app.ts'
import { isVelaError } from '../errors/vela-error.ts'
import { definePlugin, stop } from '../pipeline/plugin.ts'
import { json, status } from '../replies.ts'
import { inject, startTestServer } from '../testing/index.ts'
import type { AppConfig } from '../app/config.ts'
import { strictLog } from '../../test/support/logs.ts'

const logs = strictLog()

// Every request the route table takes is refused by a plugin, then by security: the health
// endpoints must not meet either.
let refusals = 0
const info = {
  title: 'refuse all',
  version: '1',
  author: 'test',
  description: 'answers 429 to everything',
  options: {},
}
const refuseAll = definePlugin({ name: 'refuse-all', info, preRequest: () => (refusals++, stop(status(429))) })
const make = (
  server: AppConfig['server'] = {},
  routes: [string, () => unknown][] = [['GET /work', () => json({ ok: true })]],
) =>
  createApp(
    {
      bootstrapApplication: 'health',
      server,
      plugins: [refuseAll()],
      routes: { r: { prefix: '', security: () => false, routes: routes as never } },
    },
    { env: {}, log: logs.log },
  )

const answer = async (res: Response) => ({ status: res.status, body: await res.text() })

describe('health endpoints', () => {
  it('/readyz: 503 starting, 200 ready after start(), 503 draining after drain(); /livez 200 throughout; no plugin or security runs', async () => {
    const app = make()
    expect(app.state).toBe('starting')
    expect(await answer(await inject(app, '/readyz'))).toEqual({ status: 503, body: '{"status":"starting"}' })
    expect(await answer(await inject(app, '/livez'))).toEqual({ status: 200, body: '{"status":"live"}' })
    await app.start()
    expect(app.state).toBe('ready')
    const ready = await inject(app, '/readyz')
    expect(await answer(ready)).toEqual({ status: 200, body: '{"status":"ready"}' })
    expect(ready.headers.get('cache-control')).toBe('no-store')
    expect(ready.headers.get('content-type')).toBe('application/json; charset=utf-8')
    app.drain()
    expect(app.state).toBe('draining')
    // A later start() (a dev swap) does not bring readiness back.
    await app.start()
    expect(await answer(await inject(app, '/readyz'))).toEqual({ status: 503, body: '{"status":"draining"}' })
    expect(await answer(await inject(app, '/livez'))).toEqual({ status: 200, body: '{"status":"live"}' })
    expect(refusals).toBe(0)
    expect((await inject(app, '/work')).status).toBe(429)
    expect(refusals).toBe(1)
  })

  it('on node: HEAD has the headers without a body; other methods are a 405 with allow', async () => {
    const app = make()
    await app.start()
    const server = await startTestServer(app)
    try {
      const head = await server.request({ method: 'HEAD', url: '/readyz' })
      expect({ status: head.status, length: head.headers.get('content-length'), body: await head.text() }).toEqual({
        status: 200,
        length: '18',
        body: '',
      })
      const get = await server.request('/livez')
      expect(await answer(get)).toEqual({ status: 200, body: '{"status":"live"}' })
      const post = await server.request({ method: 'POST', url: '/readyz', body: 'x' })
      expect(await answer(post)).toEqual({
        status: 405,
        body: '{"error":"Method Not Allowed: health endpoints answer GET and HEAD"}',
      })
      expect(post.headers.get('allow')).toBe('GET, HEAD')
    } finally {
      await server.close()
    }
  })

  it('server.health sets the paths; false turns an endpoint, or both, off (the path is then routed as any other)', async () => {
    const custom = make({ health: { live: '/health/live', ready: false } })
    expect(await answer(await inject(custom, '/health/live'))).toEqual({ status: 200, body: '{"status":"live"}' })
    expect((await inject(custom, '/readyz')).status).toBe(404)
    const off = make({ health: false })
    expect((await inject(off, '/livez')).status).toBe(404)
    expect((await inject(off, '/readyz')).status).toBe(404)
  })

  it('refused config: a path that is not one, the same path twice, a route on a health path, a negative delay', () => {
    const code = (fn: () => unknown) => {
      try {
        fn()
      } catch (err) {
        return isVelaError(err, 'VELA_ERR_CONFIG') ? err.message : `not a config error: ${String(err)}`
      }
      return 'no error'
    }
    expect(code(() => make({ health: { live: 'livez' } }))).toBe(
      'server.health.live must be a path starting with / (no query, no spaces) or false, got "livez"',
    )
    expect(code(() => make({ health: { live: '/up', ready: '/up' } }))).toBe(
      'server.health: live and ready are both /up; give them different paths',
    )
    expect(code(() => make({ health: 'yes' as never }))).toBe(
      'server.health must be { live, ready } or false, got "yes"',
    )
    expect(code(() => make({}, [['GET /readyz', () => json({})]]))).toMatch(
      /^server\.health\.ready: \/readyz is also the path of a route \(.+\), which the health endpoint would hide; give server\.health\.ready another path, or false$/,
    )
    expect(code(() => make({ drainDelay: -1 }))).toBe(
      'server.drainDelay must be a whole number of milliseconds from 0 (none) to 2147483647, got -1',
    )
    expect(code(() => make({ shutdownTimeout: 1.5 }))).toBe(
      'server.shutdownTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got 1.5',
    )
  })
})
