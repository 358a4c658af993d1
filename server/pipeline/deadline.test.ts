// Handler deadlines (deadline.ts): 503 by the error page's negotiation or the group's status route,
// the route's own option over `server.handlerTimeout`, several timeouts at once, late answers and
// late failures dropped, the web path (app.fetch) as the node one, and bad values refused at start.
import net from 'node:net'
import { expect, it } from 'vitest'
import { strictLog } from '../../test/support/logs.ts'
import { until } from '../../test/support/until.ts'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../app/config.ts'
import { json, status } from '../replies.ts'
import { inject, startTestServer } from '../testing/index.ts'

const logs = strictLog()
const never = () => new Promise<never>(() => {})
const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

let longStarted = false
let leftStarted = false

/** Waits (bounded) until `check()` holds. */
const app = createApp(
  {
    bootstrapApplication: 'deadlines',
    server: { handlerTimeout: 150 },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['GET /never', never],
          ['GET /sync', () => json({ sync: true })],
          [
            'GET /takes/:ms',
            async (req) => (await after(Number(req.bindings.ms)), json({ took: Number(req.bindings.ms) })),
          ],
          ['GET /left', () => ((leftStarted = true), never())],
          ['GET /patient', async () => (await after(300), json({ patient: true })), { handlerTimeout: 2000 }],
          ['GET /unbounded', async () => (await after(300), json({ unbounded: true })), { handlerTimeout: 0 }],
          ['GET /short', never, { handlerTimeout: 50 }],
          ['GET /long', () => ((longStarted = true), never()), { handlerTimeout: 250 }],
          [
            'GET /late-failure',
            async () => {
              // Fails once its deadline has passed, however late a busy machine fires the timers.
              await until('the deadline logged', () =>
                logs.entries.some((e) => e.text.startsWith('503 on GET /late-failure')),
              )
              throw new Error('too late to matter')
            },
          ],
        ],
      },
      pages: {
        prefix: '/paged',
        security: false,
        routes: [
          ['GET /never', never],
          [503, () => status(503, { error: 'busy, come back later' }, { headers: { 'retry-after': '5' } })],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

const expectDeadlineLog = (path: string, route = path, ms = 150) =>
  logs.expectLogged(
    new RegExp(
      `^503 on GET ${path} \\(route ${route}, routes/\\w+\\.anonymous\\): no answer within ${ms} ms \\(handlerTimeout\\); a late answer will be dropped$`,
    ),
  )

it('in-process: a 503 JSON or HTML page by Accept, or the group status route', async () => {
  expectDeadlineLog('/never')
  expectDeadlineLog('/paged/never')
  const t0 = performance.now()
  const res = await inject(app, '/never')
  expect(performance.now() - t0).toBeGreaterThanOrEqual(145)
  expect(res.status).toBe(503)
  expect(await res.json()).toEqual({ error: 'Service Unavailable: no answer within 150 ms' })
  const html = await inject(app, { url: '/never', headers: { accept: 'text/html' } })
  expect(html.status).toBe(503)
  expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(await html.text()).toContain('<p>Service Unavailable: no answer within 150 ms</p>')
  const paged = await inject(app, '/paged/never')
  expect(paged.status).toBe(503)
  expect(paged.headers.get('retry-after')).toBe('5')
  expect(await paged.json()).toEqual({ error: 'busy, come back later' })
})

it("a route's handlerTimeout overrides the server's; 0 means none; synchronous routes are never timed", async () => {
  const [patient, unbounded, sync] = await Promise.all([
    inject(app, '/patient'),
    inject(app, '/unbounded'),
    inject(app, '/sync'),
  ])
  expect(await patient.json()).toEqual({ patient: true })
  expect(await unbounded.json()).toEqual({ unbounded: true })
  expect(await sync.json()).toEqual({ sync: true })
})

it('deadlines of different lengths at once: each answered at its own, over node as in-process', async () => {
  expectDeadlineLog('/long', '/long', 250)
  expectDeadlineLog('/short', '/short', 50)
  const server = await startTestServer(app)
  try {
    const t0 = performance.now()
    const at = (p: Promise<Response>) =>
      p.then(async (res) => ({ status: res.status, body: await res.json(), at: performance.now() - t0 }))
    // The longer one first: the timer, armed for it, is brought forward for the shorter.
    const long = at(server.request('/long'))
    await until('the long route started', () => longStarted)
    const [short, longer] = await Promise.all([at(server.request('/short')), long])
    expect(short).toMatchObject({ status: 503, body: { error: 'Service Unavailable: no answer within 50 ms' } })
    expect(longer).toMatchObject({ status: 503, body: { error: 'Service Unavailable: no answer within 250 ms' } })
    expect(short.at).toBeLessThan(longer.at)
    expect(longer.at).toBeGreaterThanOrEqual(245)
  } finally {
    await server.close({ timeoutMs: 1000 })
  }
})

it('requests settling out of order under one deadline: each answered by its own handler, the one left hanging by the deadline', async () => {
  expectDeadlineLog('/never')
  const body = (p: Promise<Response>) => p.then(async (res) => [res.status, await res.json()])
  const slow = body(inject(app, '/takes/100'))
  const fast = body(inject(app, '/takes/10'))
  const hung = body(inject(app, '/never'))
  expect(await Promise.all([slow, fast, hung])).toEqual([
    [200, { took: 100 }],
    [200, { took: 10 }],
    [503, { error: 'Service Unavailable: no answer within 150 ms' }],
  ])
})

it('a client that left before the deadline: the hung route is logged, nothing is sent', async () => {
  logs.expectLogged(
    /^GET \/left \(route \/left, routes\/r\.anonymous\): no answer within 150 ms \(handlerTimeout\); the client had gone or been answered by the listener$/,
  )
  const server = await startTestServer(app)
  try {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write('GET /left HTTP/1.1\r\nhost: x\r\n\r\n'))
    socket.on('error', () => {})
    await until('the route started', () => leftStarted)
    socket.destroy()
    await until('the hung route logged', () => logs.entries.some((e) => e.text.startsWith('GET /left')))
  } finally {
    await server.close({ timeoutMs: 1000 })
  }
})

it("a failure after the deadline's 503 is logged as late, and not answered", async () => {
  expectDeadlineLog('/late-failure')
  logs.expectLogged(
    /^GET \/late-failure \(routes\/r\.anonymous\) failed after its deadline's 503 was sent: Error: too late to matter$/,
  )
  const res = await inject(app, '/late-failure')
  expect(res.status).toBe(503)
  await until('the late failure logged', () => logs.entries.some((e) => e.text.includes('failed after')))
})

it('server.handlerTimeout defaults to requestTimeout; bad values are refused naming the key or the route', () => {
  const config = (server: AppConfig['server'], routes: AppConfig['routes'] = {}): AppConfig => ({
    bootstrapApplication: 'x',
    server,
    routes,
  })
  expect(
    createApp(config({ requestTimeout: 5000, headersTimeout: 4000 }), { env: {} }).config.server.handlerTimeout,
  ).toBe(5000)
  expect(createApp(config({}), { env: {} }).config.server.handlerTimeout).toBe(60_000)
  expect(() => createApp(config({ handlerTimeout: -1 }), { env: {} })).toThrow(
    expect.objectContaining({
      code: 'VELA_ERR_CONFIG',
      message: 'server.handlerTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got -1',
    }),
  )
  const route = {
    r: {
      prefix: '',
      security: false as const,
      routes: [['GET /a', () => status(200), { handlerTimeout: 1.5 }]] as const,
    },
  }
  expect(() => createApp(config({}, route), { env: {} })).toThrow(
    expect.objectContaining({
      code: 'VELA_ERR_ROUTE',
      message:
        'r group 0 route 0: handlerTimeout must be a whole number of milliseconds from 0 (none) to 2147483647, got 1.5',
    }),
  )
})
