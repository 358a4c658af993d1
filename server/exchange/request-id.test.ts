// Request ids: generated for each request, taken from a trusted proxy's `x-request-id` when it is
// a sane value, ignored from anyone else; `req.id` is the id the response carries and the one
// its log lines name; `server.requestId` renames the header or turns it off.
import { afterEach, expect, it, vi } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import type { AppConfig } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import { isVelaError } from '../errors/vela-error.ts'
import { json } from '../replies.ts'
import { inject, startTestServer } from '../testing/inject.ts'

const GENERATED = /^[\w-]{8}-[0-9a-z]+$/

const app = (server: AppConfig['server'] = {}): AppConfig => ({
  bootstrapApplication: 'ids',
  server,
  routes: {
    r: {
      prefix: '',
      security: false,
      routes: [
        ['GET /id', (req) => json({ id: req.id })],
        [
          'GET /boom',
          () => {
            throw new Error('kaboom')
          },
        ],
      ],
    },
  },
})

/** The id the response carries, after checking that `req.id` gave the handler the same one. */
async function idOf(res: Response, header = 'x-request-id'): Promise<string | null> {
  const body = (await res.json()) as { id: string }
  expect(res.headers.get(header)).toBe(body.id)
  return body.id
}

describeModes('generated request ids', app(), (t) => {
  it('every request gets its own; an incoming one from an untrusted peer is ignored', async () => {
    const a = await idOf(await t.request('/id'))
    const b = await idOf(await t.request({ url: '/id', headers: { 'x-request-id': 'chosen-by-client' } }))
    expect(a).toMatch(GENERATED)
    expect(b).toMatch(GENERATED)
    expect(a).not.toBe(b)
  })

  it('a 404 carries one', async () => {
    const res = await t.request('/nowhere')
    expect(res.status).toBe(404)
    expect(res.headers.get('x-request-id')).toMatch(GENERATED)
  })
})

// Over node's listener the peer is 127.0.0.1; in process `inject` says so.
describeModes('request ids behind a trusted proxy', app({ trustProxy: ['127.0.0.1'] }), (t) => {
  it("takes the proxy's id when it is sane", async () => {
    const sent = 'Root=1-67891233-abcdef012345678912345678/edge:7@a.b+c_d'
    expect(await idOf(await t.request({ url: '/id', headers: { 'x-request-id': sent } }))).toBe(sent)
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'
    const res = await t.request({ url: '/nowhere', headers: { 'x-request-id': uuid } })
    expect(res.headers.get('x-request-id')).toBe(uuid)
  })

  it('generates one instead of a value too long or with characters a log line should not take', async () => {
    for (const bad of ['x'.repeat(129), 'two words', '<script>', 'a;b', 'é']) {
      const id = await idOf(await t.request({ url: '/id', headers: { 'x-request-id': bad } }))
      expect(id).toMatch(GENERATED)
    }
    expect(await idOf(await t.request({ url: '/id', headers: { 'x-request-id': 'y'.repeat(128) } }))).toBe(
      'y'.repeat(128),
    )
  })
})

describeModes('request ids from a proxy that is not trusted', app({ trustProxy: ['10.0.0.0/8'] }), (t) => {
  it('ignores its id', async () => {
    expect(await idOf(await t.request({ url: '/id', headers: { 'x-request-id': 'from-elsewhere' } }))).toMatch(
      GENERATED,
    )
  })
})

describeModes(
  'server.requestId',
  app({ trustProxy: ['127.0.0.1'], requestId: { header: 'X-Correlation-Id', trustIncoming: false } }),
  (t) => {
    it('renames the header; trustIncoming: false generates even behind a trusted proxy', async () => {
      const res = await t.request({ url: '/id', headers: { 'x-correlation-id': 'from-proxy' } })
      expect(res.headers.get('x-request-id')).toBeNull()
      expect(await idOf(res, 'x-correlation-id')).toMatch(GENERATED)
    })
  },
)

describeModes('server.requestId: false', app({ requestId: false }), (t) => {
  it('sends no id header; req.id still has one', async () => {
    const res = await t.request('/id')
    expect(res.headers.get('x-request-id')).toBeNull()
    expect(((await res.json()) as { id: string }).id).toMatch(GENERATED)
  })
})

it('server.requestId is checked', () => {
  for (const [bad, says] of [
    [true, 'server.requestId must be'],
    [{ header: 'bad header' }, 'server.requestId.header must be'],
    [{ trustIncoming: 'yes' }, 'server.requestId.trustIncoming must be'],
  ] as const) {
    let error: unknown
    try {
      createApp(app({ requestId: bad as never }), { env: {} })
    } catch (err) {
      error = err
    }
    expect(isVelaError(error, 'VELA_ERR_CONFIG')).toBe(true)
    expect((error as Error).message).toContain(says)
  }
})

afterEach(() => {
  vi.restoreAllMocks()
})

it("a request's log lines carry its id: the request given to the app's log, request_id= in the default log", async () => {
  const lines: { message: string; id: string | undefined }[] = []
  const own = createApp(app(), {
    env: {},
    log: (message, _err, _key, request?: RequestFacts) => void lines.push({ message, id: request?.id }),
  })
  const res = await inject(own, '/boom')
  expect(res.status).toBe(500)
  expect(lines).toEqual([{ message: '500 on GET /boom (routes/r.anonymous)', id: res.headers.get('x-request-id') }])

  // The default log, over node's listener.
  const written: string[] = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void written.push(String(args[0])))
  const server = await startTestServer(createApp(app(), { env: {} }))
  try {
    const res = await server.request('/boom')
    expect(res.status).toBe(500)
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(GENERATED)
    expect(written).toEqual([`[vela] 500 on GET /boom (routes/r.anonymous) request_id=${id}:`])
  } finally {
    await server.close({ timeoutMs: 1000 })
  }
})
