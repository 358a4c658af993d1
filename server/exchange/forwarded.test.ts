// server.trustProxy: Forwarded, X-Forwarded-For / -Proto honoured from the listed proxies only; req.peer,
// req.scheme, the rate limit's key and the session cookie's Secure flag follow them.
import { describe, expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { resolveConfig } from '../app/config.ts'
import type { AppConfig } from '../app/config.ts'
import { rateLimitPlugin } from '../plugins/rate-limit/index.ts'
import { sessionPlugin } from '../plugins/session/plugin.ts'
import { json } from '../replies.ts'
import { clientAddress, proxyTrust, trustProxyList } from './forwarded.ts'

const app = (trustProxy?: readonly string[]): AppConfig => ({
  bootstrapApplication: 'proxied',
  server: trustProxy ? { trustProxy } : {},
  routes: {
    r: {
      prefix: '',
      security: false,
      routes: [['GET /who', (req) => json({ peer: req.peer, scheme: req.scheme, socket: req.facts.peer })]],
    },
    limited: {
      prefix: '/limited',
      security: false,
      plugins: [rateLimitPlugin({ maxRequests: 1, windowMs: 60_000 })],
      routes: [['GET /', () => json({ ok: true })]],
    },
    session: {
      prefix: '/session',
      security: false,
      plugins: [sessionPlugin({ secret: 'a-session-secret-of-at-least-32-characters' })],
      routes: [['GET /', (req) => ((req.session!.seen = true), json({ ok: true }))]],
    },
  },
})

const who = async (res: Response) => (await res.json()) as { peer: string; scheme: string; socket: string }

describeModes('server.trustProxy: a request from a listed proxy', app(['127.0.0.1']), (t) => {
  it('req.peer is the forwarded client, req.facts.peer the socket; req.scheme from X-Forwarded-Proto', async () => {
    const res = await t.request({
      url: '/who',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    })
    expect(await who(res)).toEqual({ peer: '203.0.113.7', scheme: 'https', socket: '127.0.0.1' })
  })

  it('the walk goes right to left past trusted hops; the first untrusted one is the client, not what it claims', async () => {
    // A client (198.51.100.2) that wrote its own X-Forwarded-For before reaching the proxy.
    const res = await t.request({ url: '/who', headers: { 'x-forwarded-for': '10.9.9.9, 198.51.100.2, 127.0.0.1' } })
    expect((await who(res)).peer).toBe('198.51.100.2')
  })

  it('without the headers, or with a value that is not an address, the last trusted hop is the client', async () => {
    expect(await who(await t.request('/who'))).toEqual({ peer: '127.0.0.1', scheme: 'http', socket: '127.0.0.1' })
    expect(
      await who(
        await t.request({ url: '/who', headers: { 'x-forwarded-for': 'garbage', 'x-forwarded-proto': 'gopher' } }),
      ),
    ).toEqual({ peer: '127.0.0.1', scheme: 'http', socket: '127.0.0.1' })
  })

  it('the rate limit counts each forwarded client on its own', async () => {
    const hit = (client: string) => t.request({ url: '/limited/', headers: { 'x-forwarded-for': client } })
    expect((await hit('192.0.2.10')).status).toBe(200)
    expect((await hit('192.0.2.11')).status).toBe(200)
    expect((await hit('192.0.2.10')).status).toBe(429)
  })

  it('the session cookie is Secure when the proxy says the client used https', async () => {
    const https = await t.request({ url: '/session/', headers: { 'x-forwarded-proto': 'https' } })
    expect(https.headers.get('set-cookie')).toMatch(/; Secure/i)
    const http = await t.request({ url: '/session/', headers: { 'x-forwarded-proto': 'http' } })
    expect(http.headers.get('set-cookie')).not.toMatch(/; Secure/i)
  })
})

describeModes('server.trustProxy: RFC 7239 Forwarded from a listed proxy', app(['127.0.0.1', '10.0.0.0/8']), (t) => {
  const ask = async (forwarded: string, more: Record<string, string> = {}) =>
    who(await t.request({ url: '/who', headers: { forwarded, ...more } }))

  it('req.peer is its `for`, req.scheme its `proto` (quoted, with ports, IPv6 in brackets)', async () => {
    expect(await ask('for=203.0.113.7;proto=https;by=127.0.0.1')).toEqual({
      peer: '203.0.113.7',
      scheme: 'https',
      socket: '127.0.0.1',
    })
    expect((await ask('for="[2001:db8:cafe::17]:4711"')).peer).toBe('2001:db8:cafe::17')
    expect((await ask('For="192.0.2.43:47011";Proto=HTTPS')).scheme).toBe('https')
  })

  it('the hops are walked from the right past trusted proxies; `unknown` or an obfuscated node ends the walk', async () => {
    expect((await ask('for=198.51.100.9, for=198.51.100.2, for=10.1.1.1')).peer).toBe('198.51.100.2')
    expect((await ask('for=198.51.100.9, for=unknown, for=10.1.1.1')).peer).toBe('10.1.1.1')
    expect((await ask('for=_hidden')).peer).toBe('127.0.0.1')
  })

  it('with Forwarded present, X-Forwarded-For and X-Forwarded-Proto are not read', async () => {
    expect(await ask('for=192.0.2.60', { 'x-forwarded-for': '203.0.113.99', 'x-forwarded-proto': 'https' })).toEqual({
      peer: '192.0.2.60',
      scheme: 'http',
      socket: '127.0.0.1',
    })
  })
})

describeModes('server.trustProxy: Forwarded from anyone else', app(['192.0.2.1']), (t) => {
  it('is ignored: a client cannot choose its address or scheme', async () => {
    const res = await t.request({ url: '/who', headers: { forwarded: 'for=203.0.113.7;proto=https' } })
    expect(await who(res)).toEqual({ peer: '127.0.0.1', scheme: 'http', socket: '127.0.0.1' })
  })
})

describeModes('server.trustProxy: a request from anyone else', app(['192.0.2.1', '10.0.0.0/8']), (t) => {
  it('the forwarded headers are ignored: a client cannot choose its address or scheme', async () => {
    const res = await t.request({
      url: '/who',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    })
    expect(await who(res)).toEqual({ peer: '127.0.0.1', scheme: 'http', socket: '127.0.0.1' })
  })

  it('nor can it escape the rate limit by changing the header', async () => {
    expect((await t.request({ url: '/limited/', headers: { 'x-forwarded-for': '192.0.2.20' } })).status).toBe(200)
    expect((await t.request({ url: '/limited/', headers: { 'x-forwarded-for': '192.0.2.21' } })).status).toBe(429)
  })
})

describeModes('server.trustProxy unset (the default)', app(), (t) => {
  it('the forwarded headers are ignored', async () => {
    const res = await t.request({
      url: '/who',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    })
    expect(await who(res)).toEqual({ peer: '127.0.0.1', scheme: 'http', socket: '127.0.0.1' })
  })
})

describe('server.trustProxy configuration', () => {
  const routes = {}
  it('subnets and IPv6 entries match; an IPv4-mapped socket address matches its IPv4 entry', () => {
    const trust = proxyTrust(trustProxyList(['10.0.0.0/8', '::1', 'fd00::/8'], 'server.trustProxy'))!
    expect(['10.1.2.3', '::1', 'fd12::5', '::ffff:10.0.0.1'].map((a) => trust.trusts(a))).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect(['11.0.0.1', '::2', 'not-an-ip'].map((a) => trust.trusts(a))).toEqual([false, false, false])
    const facts = {
      peer: '::ffff:10.0.0.1',
      header: (n: string) => (n === 'x-forwarded-for' ? '2001:db8::1' : undefined),
    }
    expect(clientAddress(facts as never, trust)).toBe('2001:db8::1')
    // Mapped addresses come out as IPv4, from the socket and from the header alike.
    const mapped = (peer: string, forwarded?: string) =>
      clientAddress({ peer, header: (n: string) => (n === 'x-forwarded-for' ? forwarded : undefined) } as never, trust)
    expect([
      mapped('::ffff:192.0.2.5'),
      mapped('::ffff:10.0.0.1', '::ffff:198.51.100.1'),
      mapped('::ffff:10.0.0.1'),
    ]).toEqual(['192.0.2.5', '198.51.100.1', '10.0.0.1'])
    expect(proxyTrust([])).toBeUndefined()
  })

  it('VELA_TRUST_PROXY (comma-separated) overrides the app; the default is none', () => {
    expect(resolveConfig({ bootstrapApplication: 'x', routes }, {}).server.trustProxy).toEqual([])
    const c = resolveConfig(
      { bootstrapApplication: 'x', server: { trustProxy: ['127.0.0.1'] }, routes },
      { VELA_TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' },
    )
    expect(c.server.trustProxy).toEqual(['10.0.0.0/8', '192.0.2.1'])
    expect(c.defaults.has('server.trustProxy')).toBe(false)
  })

  it('an entry that is not an address or a subnet is a coded configuration error naming the key', () => {
    for (const [config, env, message] of [
      [
        { trustProxy: ['127.0.0.1', 'localhost'] },
        {},
        'server.trustProxy: "localhost" is not an IP address or a CIDR subnet',
      ],
      [{ trustProxy: ['10.0.0.0/33'] }, {}, 'server.trustProxy: "10.0.0.0/33" is not an IP address or a CIDR subnet'],
      [{ trustProxy: '127.0.0.1' }, {}, 'server.trustProxy must be a list of proxy addresses or CIDR subnets'],
      [{}, { VELA_TRUST_PROXY: '10.0.0.0/x' }, 'VELA_TRUST_PROXY: "10.0.0.0/x" is not an IP address or a CIDR subnet'],
    ] as const) {
      expect(() => resolveConfig({ bootstrapApplication: 'x', server: config as never, routes }, env)).toThrow(
        expect.objectContaining({ code: 'VELA_ERR_CONFIG', message: expect.stringContaining(message) }),
      )
    }
  })
})
