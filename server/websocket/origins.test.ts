// The Origin comparison of WebSocket upgrades (origins.ts), on request facts alone: how origins
// are normalised, what "the request's own origin" is with and without a trusted proxy, and what a
// list, '*' and a function allow. The upgrades themselves: test/faults/websocket-abuse.test.ts.
import { describe, expect, it } from 'vitest'
import type { RequestFacts } from '../contracts/request.ts'
import { proxyTrust } from '../exchange/forwarded.ts'
import { normalOrigin, originGate } from './origins.ts'

/** Facts of an upgrade over plain http from `peer`, with these headers. */
const facts = (headers: Record<string, string>, peer = '127.0.0.1'): RequestFacts =>
  ({
    scheme: 'http',
    host: 'localhost',
    port: 80,
    peer,
    header: (name: string) => headers[name],
  }) as unknown as RequestFacts

describe('normalOrigin', () => {
  it('gives origins as browsers serialise them; anything with a path, credentials or no host is none', () => {
    expect(normalOrigin('https://App.Example.com:443/')).toBe('https://app.example.com')
    expect(normalOrigin('http://[::1]:8080')).toBe('http://[::1]:8080')
    expect(normalOrigin('http://localhost:5173')).toBe('http://localhost:5173')
    for (const text of [
      'null',
      'app.example.com',
      'https://a.example/chat',
      'https://u:p@a.example',
      'https://a.example?x',
      'file:///tmp/x',
      '',
    ]) {
      expect(normalOrigin(text), text).toBeUndefined()
    }
  })
})

describe('originGate', () => {
  const sameOnly = originGate([])

  it("the request's own origin (Host, the scheme's default port left out) passes; another port, scheme or host does not", () => {
    expect(sameOnly(facts({ host: 'chat.example.com', origin: 'http://chat.example.com' }), undefined)).toBeUndefined()
    expect(
      sameOnly(facts({ host: 'chat.example.com:80', origin: 'http://chat.example.com' }), undefined),
    ).toBeUndefined()
    expect(sameOnly(facts({ host: '[::1]:8080', origin: 'http://[::1]:8080' }), undefined)).toBeUndefined()
    for (const origin of [
      'http://chat.example.com:8080',
      'https://chat.example.com',
      'http://evil.example',
      'null',
      'garbage',
    ]) {
      expect(sameOnly(facts({ host: 'chat.example.com', origin }), undefined)).toBe(origin)
    }
  })

  it('no Origin passes (not a browser); the pre-RFC Sec-WebSocket-Origin is read like Origin', () => {
    expect(sameOnly(facts({ host: 'chat.example.com' }), undefined)).toBeUndefined()
    expect(
      sameOnly(facts({ host: 'chat.example.com', 'sec-websocket-origin': 'http://evil.example' }), undefined),
    ).toBe('http://evil.example')
  })

  it("a trusted proxy's X-Forwarded-Proto is the scheme; anyone else's is ignored", () => {
    const headers = { host: 'chat.example.com', origin: 'https://chat.example.com', 'x-forwarded-proto': 'https' }
    const trust = proxyTrust(['10.0.0.0/8'])
    expect(sameOnly(facts(headers, '10.1.2.3'), trust)).toBeUndefined()
    expect(sameOnly(facts(headers, '192.0.2.9'), trust)).toBe('https://chat.example.com')
    expect(sameOnly(facts(headers, '10.1.2.3'), undefined)).toBe('https://chat.example.com')
  })

  it("a list allows its origins besides the own (compared normalised); '*' anywhere allows all; a function decides", () => {
    const listed = originGate(['https://App.example.com:443/'])
    expect(listed(facts({ host: 'api.example.com', origin: 'https://app.example.com' }), undefined)).toBeUndefined()
    expect(listed(facts({ host: 'api.example.com', origin: 'http://api.example.com' }), undefined)).toBeUndefined()
    expect(listed(facts({ host: 'api.example.com', origin: 'https://evil.example' }), undefined)).toBe(
      'https://evil.example',
    )
    expect(originGate('*')(facts({ host: 'a', origin: 'https://evil.example' }), undefined)).toBeUndefined()
    expect(
      originGate(['https://app.example.com', '*'])(facts({ host: 'a', origin: 'null' }), undefined),
    ).toBeUndefined()
    const seen: string[] = []
    const fn = originGate((origin) => (seen.push(origin), origin.endsWith('.example.org')))
    expect(fn(facts({ host: 'a.example.org', origin: 'http://a.example.org' }), undefined)).toBeUndefined()
    expect(fn(facts({ host: 'a.example.org', origin: 'https://b.example.org' }), undefined)).toBeUndefined()
    expect(fn(facts({ host: 'a.example.org', origin: 'https://evil.example' }), undefined)).toBe('https://evil.example')
    // The own origin needs no call.
    expect(seen).toEqual(['https://b.example.org', 'https://evil.example'])
  })
})
