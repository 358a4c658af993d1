// redirect()'s Location: percent-encoding for the header, control characters refused, and the
// open-redirect check (localOnly, allowHosts, fallback). Over HTTP: test/faults/input.test.ts.
import { describe, expect, it } from 'vitest'
import type { RedirectOptions } from './replies.ts'
import { redirect } from './replies.ts'

const location = (to: string, options?: RedirectOptions) => (options ? redirect(to, options) : redirect(to)).location

describe('redirect(): the target percent-encoded for the header', () => {
  it.each([
    ['/login', '/login'],
    ['€', '%E2%82%AC'],
    ['/日本?q=東京#上', '/%E6%97%A5%E6%9C%AC?q=%E6%9D%B1%E4%BA%AC#%E4%B8%8A'],
    ['/a b"<>\\^`{|}', '/a%20b%22%3C%3E%5C%5E%60%7B%7C%7D'],
    ["/keep-._~:/?#[]@!$&'()*+,;=", "/keep-._~:/?#[]@!$&'()*+,;="],
    ['https://example.com/caf%C3%A9?x=%2F', 'https://example.com/caf%C3%A9?x=%2F'],
    ['/100%', '/100%25'],
    ['/%zz%4', '/%25zz%254'],
    ['/caf%C3%A9/é', '/caf%C3%A9/%C3%A9'],
    ['/lone\uD800', '/lone%EF%BF%BD'],
    ['', ''],
  ])('%j → %j', (target, expected) => {
    expect(location(target)).toBe(expected)
  })

  it('keeps the status: options.status, 302 by default', () => {
    expect(redirect('/a').status).toBe(302)
    expect(redirect('/a', { status: 301 }).status).toBe(301)
    expect(redirect('/a', { status: 303 }).status).toBe(303)
    expect(redirect('/a', {}).status).toBe(302)
  })

  it('refuses CR, LF and other control characters with a TypeError naming the problem', () => {
    for (const target of ['/a\r\nset-cookie: x=1', '/a\nb', '/a\tb', '/a\u0000b', '/a\u007fb']) {
      expect(() => redirect(target)).toThrow(TypeError)
    }
    expect(() => redirect('/a\r\nset-cookie: x=1')).toThrow(
      'redirect(): the target "/a\\r\\nset-cookie: x=1" contains a control character (CR, LF or another), refused to prevent header injection; a target taken from the request needs redirect(to, { localOnly: true })',
    )
    expect(() => redirect(`/${'a'.repeat(200)}\n`)).toThrow(/target "\/a{79}…" contains/)
  })

  it('refuses a target that is not a string', () => {
    expect(() => redirect(undefined as unknown as string)).toThrow(
      'redirect(): the target must be a string, got undefined',
    )
    expect(() => redirect(null as unknown as string)).toThrow('redirect(): the target must be a string, got null')
    expect(() => redirect(['/a'] as unknown as string)).toThrow('redirect(): the target must be a string, got object')
  })
})

describe('redirect(to, { localOnly }): an untrusted target', () => {
  it('a path on this site is followed (encoded)', () => {
    expect(location('/notes/42?tab=a b', { localOnly: true })).toBe('/notes/42?tab=a%20b')
    expect(location('/', { localOnly: true })).toBe('/')
    expect(location('/日本', { localOnly: true, status: 303 })).toBe('/%E6%97%A5%E6%9C%AC')
    expect(location('/%2F%2Fevil.example', { localOnly: true })).toBe('/%2F%2Fevil.example')
  })

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'evil.example',
    ' /path',
    '',
    '/\t/evil.example',
    '/a\r\nset-cookie: x=1',
  ])('%j goes to the fallback', (target) => {
    expect(location(target, { localOnly: true })).toBe('/')
    expect(location(target, { localOnly: true, fallback: '/home' })).toBe('/home')
  })

  it('a target that is not a string goes to the fallback', () => {
    expect(location(undefined as unknown as string, { localOnly: true })).toBe('/')
    expect(location(['/a', '/b'] as unknown as string, { localOnly: true, fallback: '/x' })).toBe('/x')
  })

  it('the fallback is encoded too, and refused like any target with a control character', () => {
    expect(location('//evil.example', { localOnly: true, fallback: '/café' })).toBe('/caf%C3%A9')
    expect(() => redirect('//evil.example', { localOnly: true, fallback: '/a\nb' })).toThrow(TypeError)
  })
})

describe('redirect(to, { allowHosts }): local paths and http(s) URLs on listed hosts', () => {
  const allowHosts = ['accounts.example.com', 'Example.org:8443', 'bücher.example']

  it('a listed host (name, or name:port) is followed, as the URL parser serialises it', () => {
    expect(location('https://accounts.example.com/login?next=/a', { allowHosts })).toBe(
      'https://accounts.example.com/login?next=/a',
    )
    expect(location('http://ACCOUNTS.example.com:8080/é', { allowHosts })).toBe(
      'http://accounts.example.com:8080/%C3%A9',
    )
    expect(location('https://example.org:8443/x', { allowHosts })).toBe('https://example.org:8443/x')
    expect(location('https://BÜCHER.example/x', { allowHosts })).toBe('https://xn--bcher-kva.example/x')
    expect(location('/local', { allowHosts })).toBe('/local')
    // A browser reads `\` as `/` here too: the host is the listed one, and the serialised URL says so.
    expect(location('https://accounts.example.com\\@evil.example/', { allowHosts })).toBe(
      'https://accounts.example.com/@evil.example/',
    )
  })

  it.each([
    'https://evil.example/',
    'https://example.org/x',
    'https://example.org:9443/x',
    'https://accounts.example.com.evil.example/',
    'https://accounts.example.com@evil.example/',
    '//accounts.example.com/x',
    'ftp://accounts.example.com/x',
    'javascript://accounts.example.com/%0aalert(1)',
    'https://accounts.example.com/\r\nx',
    'http://[::1',
  ])('%j goes to the fallback', (target) => {
    expect(location(target, { allowHosts, fallback: '/f' })).toBe('/f')
  })

  it('an empty list admits local paths only', () => {
    expect(location('https://accounts.example.com/', { allowHosts: [] })).toBe('/')
    expect(location('/ok', { allowHosts: [] })).toBe('/ok')
  })
})
