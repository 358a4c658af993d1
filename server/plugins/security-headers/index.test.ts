// securityHeaders(): the header sets it builds (defaults, each option, CSP merging, HSTS over
// https only), the options it refuses, and the hook on an app's replies (a header the handler set
// wins; immutable Responses; the https variant by the request's scheme, trusted proxies included).
import { get } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../app/create-app.ts'
import { isVelaError } from '../../errors/vela-error.ts'
import type { ResponseHook } from '../../contracts/response.ts'
import { json, redirect, status } from '../../replies.ts'
import { inject, startTestServer } from '../../testing/inject.ts'
import { securityHeaderSets, securityHeaders } from './index.ts'
import type { SecurityHeadersOptions } from './index.ts'

const DEFAULT_CSP =
  "default-src 'self'; base-uri 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self'"

const DEFAULTS = {
  'content-security-policy': DEFAULT_CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

describe('the header sets', () => {
  it('defaults: helmet-like over http (but three legacy headers); over https HSTS and upgrade-insecure-requests too', () => {
    const { http, https } = securityHeaderSets()
    expect(http).toEqual(DEFAULTS)
    expect(https).toEqual({
      ...DEFAULTS,
      'content-security-policy': `${DEFAULT_CSP}; upgrade-insecure-requests`,
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    })
    expect(Object.isFrozen(http) && Object.isFrozen(https)).toBe(true)
  })

  it('every header can be changed, and left out with false; the legacy ones are sent on request', () => {
    expect(
      securityHeaderSets({ xDnsPrefetchControl: true, xPermittedCrossDomainPolicies: true, xXssProtection: true }).http,
    ).toEqual({
      ...DEFAULTS,
      'x-dns-prefetch-control': 'off',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    })
    const changed = securityHeaderSets({
      xFrameOptions: 'SAMEORIGIN',
      referrerPolicy: ['no-referrer', 'strict-origin-when-cross-origin'],
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginResourcePolicy: 'cross-origin',
      xDnsPrefetchControl: 'on',
      xPermittedCrossDomainPolicies: 'master-only',
      strictTransportSecurity: { maxAge: 600, includeSubDomains: false, preload: true },
    }).https
    expect(changed).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer, strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'cross-origin-resource-policy': 'cross-origin',
      'x-dns-prefetch-control': 'on',
      'x-permitted-cross-domain-policies': 'master-only',
      'strict-transport-security': 'max-age=600; preload',
    })
    const off: SecurityHeadersOptions = {
      contentSecurityPolicy: false,
      strictTransportSecurity: false,
      xFrameOptions: false,
      referrerPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      xContentTypeOptions: false,
      xDnsPrefetchControl: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }
    expect(securityHeaderSets(off)).toEqual({ http: {}, https: {} })
  })

  it('CSP directives merge over the defaults (CSP or camelCase names); false removes one; report-only', () => {
    const { http, https } = securityHeaderSets({
      contentSecurityPolicy: {
        directives: {
          'img-src': ["'self'", 'https://images.example'],
          connectSrc: "'self' wss://live.example",
          'script-src-attr': false,
          'upgrade-insecure-requests': false,
        },
        reportOnly: true,
      },
    })
    expect(http['content-security-policy']).toBeUndefined()
    const policy = http['content-security-policy-report-only']!
    expect(policy).toContain("img-src 'self' https://images.example;")
    expect(policy).toContain("connect-src 'self' wss://live.example")
    expect(policy).not.toContain('script-src-attr')
    expect(policy).toContain("script-src 'self'")
    expect(https['content-security-policy-report-only']).toBe(policy)
  })

  it('refuses unknown options and values a header cannot take, naming them (VELA_ERR_PLUGIN)', () => {
    const refused = (options: unknown) => {
      try {
        securityHeaderSets(options as SecurityHeadersOptions)
      } catch (err) {
        expect(isVelaError(err, 'VELA_ERR_PLUGIN')).toBe(true)
        return (err as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(options)}`)
    }
    expect(refused({ contentSecurityPolicies: false })).toContain('unknown option "contentSecurityPolicies"')
    expect(refused({ xFrameOptions: 'ALLOW-FROM x' })).toContain(
      "xFrameOptions must be true, false, 'DENY', 'SAMEORIGIN'",
    )
    expect(refused({ referrerPolicy: 'sometimes' })).toContain('referrerPolicy must be')
    expect(refused({ strictTransportSecurity: { maxAge: -1 } })).toContain(
      'strictTransportSecurity.maxAge must be a whole number',
    )
    expect(refused({ contentSecurityPolicy: { directives: { 'script-src': ["'self'; img-src *"] } } })).toContain(
      'CSP directive script-src has the source',
    )
    expect(refused({ contentSecurityPolicy: { directives: { 'script src': "'self'" } } })).toContain(
      'is not a CSP directive name',
    )
  })
})

describe('on an app', () => {
  const app = createApp(
    {
      bootstrapApplication: 't',
      server: { trustProxy: ['127.0.0.1'] },
      onResponse: [securityHeaders()],
      routes: {
        r: {
          prefix: '',
          security: false,
          routes: [
            [
              'GET /framed',
              () =>
                json(
                  { ok: true },
                  { headers: { 'X-Frame-Options': 'SAMEORIGIN', 'content-security-policy': "frame-ancestors 'self'" } },
                ),
            ],
            ['GET /immutable', () => Response.redirect('http://localhost/elsewhere', 302)],
            ['GET /moved', () => redirect('/elsewhere')],
          ],
        },
      },
    },
    { env: {} },
  )

  it('a header the handler set itself wins; the others are added', async () => {
    const res = await inject(app, '/framed')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'self'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('redirects carry them, Responses with immutable headers too', async () => {
    for (const url of ['/moved', '/immutable']) {
      const res = await inject(app, url)
      expect([url, res.status, res.headers.get('x-frame-options'), res.headers.get('location')]).toEqual([
        url,
        302,
        'DENY',
        url === '/moved' ? '/elsewhere' : 'http://localhost/elsewhere',
      ])
    }
  })

  it('HSTS over https only: the socket, or X-Forwarded-Proto from a trusted proxy', async () => {
    expect((await inject(app, '/moved')).headers.get('strict-transport-security')).toBeNull()
    const forwarded = await inject(app, { url: '/moved', headers: { 'x-forwarded-proto': 'https' } })
    expect(forwarded.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    expect(forwarded.headers.get('content-security-policy')).toContain('upgrade-insecure-requests')
    // From an address that is not a trusted proxy the header is not believed.
    const spoofed = await inject(app, { url: '/moved', headers: { 'x-forwarded-proto': 'https' }, peer: '203.0.113.9' })
    expect(spoofed.headers.get('strict-transport-security')).toBeNull()
    const direct = await app.fetch(new Request('https://example.test/moved'))
    expect(direct.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })
})

describe("on node's listener", () => {
  // The hook alone is merged by node's exchange itself; wrapped in another function it is called
  // on each reply as any hook is. Both must send the same headers, in the same order.
  const appWith = (hook: ResponseHook) =>
    createApp(
      {
        bootstrapApplication: 't',
        server: { trustProxy: ['127.0.0.1'] },
        onResponse: [hook],
        routes: {
          r: {
            prefix: '',
            security: false,
            routes: [
              ['GET /empty', () => status(200)],
              ['GET /framed', () => json({ ok: true }, { headers: { 'x-frame-options': 'SAMEORIGIN' } })],
              ['GET /own-id', () => json({ ok: true }, { headers: { 'x-request-id': 'mine' } })],
              [
                'GET /added',
                (req) => {
                  req.setHeader('content-security-policy', "default-src 'none'")
                  req.setHeader('x-extra', '1')
                  return status(204)
                },
              ],
              ['GET /moved', () => redirect('/elsewhere')],
            ],
          },
        },
      },
      { env: {} },
    )
  const rawHeaders = (url: string, headers: Record<string, string>) =>
    new Promise<string[]>((resolve, reject) =>
      get(url, { headers }, (res) => {
        res.resume()
        // The id differs per request; everything else must be the same.
        resolve(res.rawHeaders.map((v, i) => (res.rawHeaders[i - 1] === 'x-request-id' && v !== 'mine' ? 'id' : v)))
      }).on('error', reject),
    )

  it('sends what the hook called on each reply sends: replies own headers and added ones win, https by the proxy', async () => {
    const hook = securityHeaders()
    const merged = await startTestServer(appWith(hook))
    const called = await startTestServer(appWith((r) => hook(r)))
    try {
      for (const path of ['/empty', '/framed', '/own-id', '/added', '/moved']) {
        for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
          const fast = (await rawHeaders(merged.url + path, headers)).filter((_, i, all) => all[i - (i % 2)] !== 'Date')
          const slow = (await rawHeaders(called.url + path, headers)).filter((_, i, all) => all[i - (i % 2)] !== 'Date')
          expect(fast).toEqual(slow)
          expect(fast).toContain('x-content-type-options')
        }
      }
      const https = await rawHeaders(`${merged.url}/framed`, { 'x-forwarded-proto': 'https' })
      expect(https[https.indexOf('strict-transport-security') + 1]).toBe('max-age=31536000; includeSubDomains')
      expect(https[https.indexOf('x-frame-options') + 1]).toBe('SAMEORIGIN')
      const added = await rawHeaders(`${merged.url}/added`, {})
      expect(added[added.indexOf('content-security-policy') + 1]).toBe("default-src 'none'")
      const ownId = await rawHeaders(`${merged.url}/own-id`, {})
      expect(ownId[ownId.indexOf('x-request-id') + 1]).toBe('mine')
    } finally {
      await merged.close()
      await called.close()
    }
  })
})
