// Contracts with the internals Vela reads from its dependencies. Each test pins one thing h3, srvx
// or node do that is not their documented API, exactly as the file named in the test relies on
// it: an upgrade that changes it fails here, naming the internal, rather than somewhere far away.
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { getSession, H3Event, setCookie, updateSession, type SessionConfig } from 'h3'
import { FastResponse } from 'srvx'
import { describe, expect, it } from 'vitest'
import { until } from './support/until.ts'

const event = (url = 'http://localhost/') => new H3Event(new Request(url))
const secret = 'x'.repeat(32)
const sessionConfig: SessionConfig = { name: 'vela', password: secret }

describe('h3 internals', () => {
  it("Symbol.for('h3.internal.event.malformed') marks an event whose path has invalid percent-encoding (server/app/create-app.ts)", () => {
    const kMalformedURL = Symbol.for('h3.internal.event.malformed')
    expect((event('http://localhost/a%zz') as unknown as Record<symbol, unknown>)[kMalformedURL]).toBe(true)
    expect((event('http://localhost/a%20b') as unknown as Record<symbol, unknown>)[kMalformedURL]).toBeUndefined()
    expect((event('http://localhost/plain') as unknown as Record<symbol, unknown>)[kMalformedURL]).toBeUndefined()
  })

  it("Symbol.for('h3.internal.event.res') / ('h3.internal.event.res.headers') hold the headers h3 utilities set on the event (server/pipeline/run.ts)", () => {
    const kEventRes = Symbol.for('h3.internal.event.res')
    const kEventResHeaders = Symbol.for('h3.internal.event.res.headers')
    const e = event()
    const prepared = () =>
      (e as unknown as Record<symbol, Record<symbol, Headers | undefined> | undefined>)[kEventRes]?.[kEventResHeaders]
    expect(prepared()).toBeUndefined()
    setCookie(e, 'a', '1')
    e.res.headers.set('x-cors', 'yes')
    expect(prepared()).toBeInstanceOf(Headers)
    expect(prepared()!.getSetCookie()).toEqual(['a=1; Path=/'])
    expect(prepared()!.get('x-cors')).toBe('yes')
  })

  it("Symbol.for('h3.internal.session.new') marks a session h3 made because no cookie unsealed, and updateSession clears it (server/session/plugin.ts)", async () => {
    const kSessionNew = Symbol.for('h3.internal.session.new')
    const fresh = event()
    const made = await getSession(fresh, sessionConfig)
    expect((made as unknown as Record<symbol, unknown>)[kSessionNew]).toBe(true)
    await updateSession(fresh, sessionConfig, { user: 'ann' })
    expect((made as unknown as Record<symbol, unknown>)[kSessionNew]).toBeUndefined()
    const cookie = fresh.res.headers.getSetCookie()[0]!.split(';')[0]!
    const read = await getSession(new H3Event(new Request('http://localhost/', { headers: { cookie } })), sessionConfig)
    expect(read.data).toEqual({ user: 'ann' })
    expect((read as unknown as Record<symbol, unknown>)[kSessionNew]).toBeUndefined()
    const forged = await getSession(
      new H3Event(new Request('http://localhost/', { headers: { cookie: 'vela=Fe26.2**nope' } })),
      sessionConfig,
    )
    expect((forged as unknown as Record<symbol, unknown>)[kSessionNew]).toBe(true)
  })

  it('event.context.sessions[name] is where getSession looks first, so a cached session is used without unsealing (server/session/plugin.ts)', async () => {
    const e = new H3Event(new Request('http://localhost/', { headers: { cookie: 'vela=not-even-a-seal' } }))
    const cached = { id: 'cached', createdAt: 1, data: { user: 'bob' } }
    ;((e.context.sessions ??= {}) as Record<string, unknown>).vela = cached
    expect(await getSession(e, sessionConfig)).toBe(cached)
  })

  it("a session too large for one cookie is chunked, its main cookie's value starting with '__chunked__' (server/session/plugin.ts)", async () => {
    const e = event()
    await updateSession(e, sessionConfig, { blob: 'y'.repeat(10_000) })
    const main = e.res.headers.getSetCookie().find((c) => c.startsWith('vela='))
    expect(main).toMatch(/^vela=__chunked__\d+;/)
  })
})

describe('srvx internals', () => {
  it("FastResponse from 'srvx' on node has _toNodeResponse(): { status, statusText, headers as a flat list, body } (server/app/node-handler.ts)", () => {
    const res = new FastResponse('{"a":1}', {
      status: 201,
      headers: { 'content-type': 'application/json', 'set-cookie': 'a=1' },
    }) as Response & {
      _toNodeResponse?: () => { status: number; statusText?: string; headers: string[]; body: unknown }
    }
    expect(typeof res._toNodeResponse).toBe('function')
    const out = res._toNodeResponse!()
    expect(out.status).toBe(201)
    expect(out.body).toBe('{"a":1}')
    expect(out.headers).toEqual(['content-type', 'application/json', 'set-cookie', 'a=1', 'content-length', '7'])
    const bytes = (new FastResponse(new Uint8Array([1, 2, 3])) as typeof res)._toNodeResponse!()
    expect(bytes.body).toEqual(new Uint8Array([1, 2, 3]))
    expect(bytes.headers).toEqual(['content-length', '3'])
  })
})

describe('node internals', () => {
  it("socket._httpMessage is the connection's current response, and null once it is done (server/drain.ts, server/client-errors.ts)", async () => {
    const seen: unknown[] = []
    const server = http.createServer((req, res) => {
      seen.push((req.socket as Socket & { _httpMessage?: unknown })._httpMessage === res)
      // Read on the next turn, as the runtime reads it (in later events): node 24 still holds it
      // when `end`'s callback runs, and has cleared it just after.
      res.end('ok', () =>
        setImmediate(() => seen.push((req.socket as Socket & { _httpMessage?: unknown })._httpMessage ?? null)),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const res = await fetch(`http://127.0.0.1:${port}/`)
      expect(await res.text()).toBe('ok')
      await until('the next turn after the response', () => seen.length === 2)
      expect(seen).toEqual([true, null])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
