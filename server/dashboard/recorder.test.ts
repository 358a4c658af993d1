// The development dashboard's recorder, in-process: each request of a `dev` app becomes a record
// with its route, status, size, the console lines written and the database queries made while it
// ran (vela/dbl's runner), secrets redacted; nothing is recorded in `prod` or `test`; and the
// store stays within its byte bound however many requests pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection } from '../../dbl/adapters/adapter.ts'
import { createRunner } from '../../dbl/repo/telemetry.ts'
import { createApp, json, status } from '../index.ts'
import type { RouteGroup } from '../index.ts'
import type { PipelineObserver } from '../pipeline/observer.ts'
import { definePlugin, fail, ok, stop } from '../pipeline/plugin.ts'
import type { InjectOptions } from '../testing/index.ts'
import { inject as send } from '../testing/index.ts'
import { until } from '../../test/support/until.ts'
import { attachToRequests } from './context.ts'
import { dashboardRecorder, withRecorder } from './recorder.ts'
import { RequestStore } from './store.ts'

// A connection that answers every query with three rows, or fails for `fail`.
const connection = {
  query: async (sql: string) => {
    if (sql === 'fail') throw new Error('relation "nowhere" does not exist')
    return { rows: [], rowCount: 3 }
  },
} as unknown as Connection
const run = createRunner('TestRepo', undefined)

const group: RouteGroup = {
  prefix: '/api',
  security: false,
  routes: [
    [
      'GET /things/:id',
      async (req) => {
        console.info('looking for thing', req.bindings.id)
        await run(connection, 'select * from things where id = $1', [req.bindings.id], 'SELECT', 'things')
        return json({ id: req.bindings.id })
      },
    ],
    [
      'GET /broken',
      async () => {
        console.warn('about to fail')
        await run(connection, 'fail', [])
        return json({})
      },
    ],
    ['GET /big', () => json({ filler: 'x'.repeat(2000) })],
  ],
}

const info = { title: 't', version: '1.0.0', author: 'tests', description: 'test plugin', options: {} }
const stamp = definePlugin({ name: 'stamp', info, preRequest: async (req) => ok(req) })
const gate = definePlugin({
  name: 'gate',
  info,
  preRequest: (req) => (req.headers.get('x-gate') === 'closed' ? stop(status(429, { error: 'slow down' })) : ok(req)),
})
const audit = definePlugin({
  name: 'audit',
  info,
  postRequest: (req) => (req.headers.get('x-audit') === 'fail' ? fail('audit store down') : ok(req)),
})
const boom = definePlugin({
  name: 'boom',
  info,
  preRequest: (_req) => {
    throw new Error('boom plugin threw')
  },
})

// A group whose security lets `x-user` through with auth data, and denies anyone else.
const guarded: RouteGroup = {
  prefix: '/guarded',
  security: function requireUser(req) {
    return req.headers.get('x-user') ? { user: req.headers.get('x-user') } : false
  },
  plugins: [stamp(), gate(), audit()],
  routes: [
    [
      'GET /page',
      (req) =>
        json(
          { hello: (req.authData as { user: string }).user },
          {
            headers: {
              'set-cookie': 'sid=s3ss10n; Path=/; HttpOnly',
              'x-session-token': 'tok-555',
              'x-served-by': 'guarded',
            },
          },
        ),
    ],
  ],
}
const exploding: RouteGroup = {
  prefix: '/exploding',
  security: false,
  plugins: [boom()],
  routes: [['GET /', () => json({})]],
}

/** A request, its body read: once the response is over its record is stored. */
async function inject(app: ReturnType<typeof createApp>, opts: InjectOptions | string, store?: RequestStore) {
  const before = store?.list()[0]
  const res = await send(app, opts)
  const body = await res.text()
  if (store) await until('the request is recorded', () => store.list()[0] !== before)
  return { status: res.status, body }
}

let detach: () => void
beforeAll(() => {
  detach = attachToRequests()
})
afterAll(() => detach())

const appWith = (store: RequestStore, environment: string, params?: boolean) =>
  createApp(
    { bootstrapApplication: 'recorded', environment, routes: { api: group, guarded, exploding } },
    withRecorder(dashboardRecorder(store, { params }), { env: {}, log: () => {} }),
  )

describe('a dev app', () => {
  const store = new RequestStore()
  const app = appWith(store, 'dev')

  it('records method, path, route, status, size, the console lines and the query with its SQL, parameters and rows', async () => {
    const res = await inject(app, '/api/things/42?page=2', store)
    expect(res.status).toBe(200)
    const [r] = store.list()
    expect(r).toMatchObject({
      method: 'GET',
      path: '/api/things/42',
      query: 'page=2',
      status: 200,
      route: { path: '/api/things/:id', controller: 'routes/api', prefix: '/api' },
    })
    expect(r!.size).toBe(res.body.length)
    expect(r!.logs.map((l) => [l.level, l.message])).toEqual([['info', 'looking for thing 42']])
    expect(r!.spans.map((s) => s.kind)).toEqual(['request', 'query'])
    expect(r!.spans[1]).toMatchObject({
      name: 'SELECT things',
      sql: 'select * from things where id = $1',
      params: ['42'],
      rows: 3,
    })
    expect(r!.spans[1]!.startMs).toBeGreaterThanOrEqual(0)
    expect(r!.spans[1]!.startMs + r!.spans[1]!.durationMs).toBeLessThanOrEqual(r!.durationMs! + 1)
  })

  it('a 500 keeps its error, its failed query and the lines written', async () => {
    expect((await inject(app, '/api/broken', store)).status).toBe(500)
    const [r] = store.list()
    expect(r!.status).toBe(500)
    expect(r!.error?.message).toBe('relation "nowhere" does not exist')
    expect(r!.logs.map((l) => l.message)).toContain('about to fail')
    expect(r!.spans[1]).toMatchObject({ kind: 'query', error: 'relation "nowhere" does not exist' })
  })

  it('404s are recorded, without a route', async () => {
    expect((await inject(app, '/nowhere', store)).status).toBe(404)
    expect(store.list()[0]).toMatchObject({ path: '/nowhere', status: 404 })
    expect(store.list()[0]!.route).toBeUndefined()
  })

  it('secret headers and query parameters are redacted', async () => {
    await inject(
      app,
      {
        url: '/api/things/1?token=abc123&page=1&api_key=k-999',
        headers: { authorization: 'Bearer s3cr3t', cookie: 'sid=c00kie', 'x-api-key': 'k-777', 'x-trace': 'visible' },
      },
      store,
    )
    const r = store.list()[0]!
    const headers = Object.fromEntries(r.headers)
    expect(headers).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-api-key': '[redacted]',
      'x-trace': 'visible',
    })
    expect(r.query).toBe('token=[redacted]&page=1&api_key=[redacted]')
    const text = JSON.stringify(r)
    for (const secret of ['s3cr3t', 'c00kie', 'k-777', 'abc123', 'k-999']) expect(text).not.toContain(secret)
  })

  it('each plugin that ran, the security verdict and the response headers (secrets redacted) are kept', async () => {
    expect((await inject(app, { url: '/guarded/page', headers: { 'x-user': 'ada' } }, store)).status).toBe(200)
    const r = store.list()[0]!
    expect(r.plugins.map((p) => [p.name, p.phase, p.outcome])).toEqual([
      ['stamp', 'pre_request', { kind: 'continued' }],
      ['gate', 'pre_request', { kind: 'continued' }],
      ['audit', 'post_request', { kind: 'continued' }],
    ])
    for (const p of r.plugins) expect(p.durationMs).toBeGreaterThanOrEqual(0)
    expect(r.plugins[1]!.startMs).toBeGreaterThanOrEqual(r.plugins[0]!.startMs)
    expect(r.security).toMatchObject({ callback: 'requireUser', verdict: 'allowed', authData: true })
    const headers = Object.fromEntries(r.responseHeaders!)
    expect(headers).toMatchObject({
      'content-type': expect.stringContaining('application/json'),
      'x-served-by': 'guarded',
      'x-session-token': '[redacted]',
      'set-cookie': 'sid=[redacted]; Path=/; HttpOnly',
    })
    const text = JSON.stringify(r)
    for (const secret of ['s3ss10n', 'tok-555']) expect(text).not.toContain(secret)
  })

  it("the app's own observer is told the same steps as the recorder", async () => {
    const told: string[] = []
    const own: PipelineObserver = {
      traceOf: () => ({
        started: performance.now(),
        plugin: (step) => told.push(`${step.name} ${step.outcome.kind}`),
        security: (verdict) => told.push(`${verdict.callback} ${verdict.verdict}`),
      }),
    }
    const ownStore = new RequestStore()
    const observed = createApp(
      { bootstrapApplication: 'recorded', environment: 'dev', routes: { guarded } },
      withRecorder(dashboardRecorder(ownStore), { env: {}, log: () => {}, observer: own }),
    )
    expect((await inject(observed, { url: '/guarded/page', headers: { 'x-user': 'ada' } }, ownStore)).status).toBe(200)
    expect(told).toEqual(['stamp continued', 'gate continued', 'requireUser allowed', 'audit continued'])
    expect(ownStore.list()[0]!.plugins.map((p) => p.name)).toEqual(['stamp', 'gate', 'audit'])
  })

  it('a plugin that replies stops the rest; a denial, a failed post plugin and a throwing plugin are told apart', async () => {
    expect(
      (await inject(app, { url: '/guarded/page', headers: { 'x-user': 'ada', 'x-gate': 'closed' } }, store)).status,
    ).toBe(429)
    let r = store.list()[0]!
    expect(r.plugins.map((p) => [p.name, p.outcome])).toEqual([
      ['stamp', { kind: 'continued' }],
      ['gate', { kind: 'replied', status: 429 }],
    ])
    expect(r.security).toBeUndefined()

    expect((await inject(app, '/guarded/page', store)).status).toBe(401)
    r = store.list()[0]!
    expect(r.security).toMatchObject({ callback: 'requireUser', verdict: 'denied', status: 401 })
    expect(r.plugins.map((p) => p.name)).toEqual(['stamp', 'gate'])

    expect(
      (await inject(app, { url: '/guarded/page', headers: { 'x-user': 'ada', 'x-audit': 'fail' } }, store)).status,
    ).toBe(500)
    r = store.list()[0]!
    expect(r.plugins.at(-1)).toMatchObject({
      name: 'audit',
      phase: 'post_request',
      outcome: { kind: 'failed', message: 'audit store down' },
    })

    expect((await inject(app, '/exploding', store)).status).toBe(500)
    r = store.list()[0]!
    expect(r.plugins).toEqual([
      expect.objectContaining({ name: 'boom', outcome: { kind: 'threw', message: 'Error: boom plugin threw' } }),
    ])
    expect(r.responseHeaders!.length).toBeGreaterThan(0)
  })

  it('query parameters are redacted when the recorder is told to', async () => {
    const quiet = new RequestStore()
    await inject(appWith(quiet, 'dev', false), '/api/things/7', quiet)
    expect(quiet.list()[0]!.spans[1]!.params).toEqual(['[redacted]'])
  })
})

it.each(['prod', 'test'])('nothing is recorded in %s', async (environment) => {
  const store = new RequestStore()
  const app = appWith(store, environment)
  expect((await inject(app, '/api/things/1')).status).toBe(200)
  expect(store.size).toBe(0)
})

it('10,000 requests keep the store within its byte bound and its count', async () => {
  const store = new RequestStore({ limit: 500, maxBytes: 256 * 1024 })
  const app = appWith(store, 'dev')
  let largest = 0
  for (let i = 0; i < 10_000; i++) {
    await inject(app, i % 2 ? `/api/things/${i}` : '/api/big', store)
    largest = Math.max(largest, store.bytes)
  }
  expect(largest).toBeLessThanOrEqual(256 * 1024)
  expect(store.size).toBeLessThanOrEqual(500)
  expect(store.size).toBeGreaterThan(50)
  // What the records kept weigh, as JSON, is within the bound too.
  expect(store.list().reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0)).toBeLessThanOrEqual(256 * 1024)
}, 120_000)
