// The runtime's error answers: status, body shape, JSON or HTML by Accept,
// stack traces only with useStacktrace, httpError, status routes.
import { expect, it, vi } from 'vitest'
import { forgetDeprecationWarnings } from '../deprecation.ts'
import { describeModes } from '../../test/support/modes.ts'
import { requestPlugin } from '../plugins/request.ts'
import type { PluginEntry } from '../pipeline/registration.ts'
import { definePlugin, fail } from '../pipeline/plugin.ts'
import { json, status } from '../replies.ts'
import type { AppConfig } from '../app/config.ts'
import { httpError } from './http-error.ts'

const failing = definePlugin({
  name: 'failing',
  info: { title: '', version: '', author: '', description: '', options: {} },
  preRequest: (_r) => fail(new Error('pool exhausted')),
})
const decode: PluginEntry[] = [requestPlugin({ json: true })]

const config = (useStacktrace: boolean): AppConfig => ({
  bootstrapApplication: 'errors',
  useStacktrace,
  server: { bodyLimit: 1024 },
  routes: {
    errors: [
      {
        prefix: '',
        security: false,
        plugins: decode,
        routes: [
          [
            'GET /boom',
            () => {
              throw new Error('kaboom')
            },
          ],
          ['GET /only-get', () => json({ ok: true })],
          ['/get-post', () => json({ ok: true }), { methods: ['get', 'post'] }],
          ['POST /echo', (req) => json({ got: req.json ?? null })],
          [
            'GET /http-error',
            () => {
              throw httpError(409)
            },
          ],
          [
            'GET /http-error-body',
            () => {
              throw httpError(422, { error: 'missing body' })
            },
          ],
          [
            'GET /http-error-text',
            () => {
              throw httpError(404, 'Note 12 not found')
            },
          ],
          [
            'GET /http-error-headers',
            () => {
              throw httpError(410, { error: 'API v1 is gone' }, { headers: { 'x-upgrade': 'v2' } })
            },
          ],
          [
            'GET /http-error-old-headers',
            () => {
              throw httpError(410, { error: 'API v1 is gone' }, { 'x-upgrade': 'v2' })
            },
          ],
        ],
      },
      {
        prefix: '/plugin-error',
        security: false,
        plugins: [failing()],
        routes: [['GET /', () => json({})]],
      },
      {
        prefix: '/custom',
        security: false,
        routes: [
          [404, (req) => json({ error: `nothing at ${req.path}`, custom: true })],
          [500, () => status(503, { error: 'custom 500 page' })],
          [
            'GET /boom',
            () => {
              throw new Error('kaboom')
            },
          ],
          [
            'GET /gone',
            () => {
              throw httpError(404)
            },
          ],
        ],
      },
    ],
  },
})

describeModes('errors', config(false), (t) => {
  it('no route matches: 404, JSON for API clients and for no Accept, HTML for browsers', async () => {
    const res = await t.request('/no/such/route')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toEqual({ error: 'Not Found' })
    const any = await t.request({ url: '/nope', headers: { accept: '*/*' } })
    expect(await any.json()).toEqual({ error: 'Not Found' })
    const html = await t.request({ url: '/nope', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
    expect(html.status).toBe(404)
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await html.text()).toContain('<title>404 Not Found</title>')
  })
  it('route matches but the method does not: 405 with allow', async () => {
    const res = await t.request({ method: 'DELETE', url: '/only-get' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD')
    expect(await res.json()).toEqual({ error: 'Method Not Allowed' })
    const both = await t.request({ method: 'PUT', url: '/get-post' })
    expect(both.headers.get('allow')).toBe('GET, POST, HEAD')
  })
  it('body over the limit: 413 with a message giving the limit', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(2000) }),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ error: 'Payload Too Large: the request body exceeds the limit of 1024 bytes' })
  })
  it('malformed JSON body: 400 saying so', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "x",',
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: string }
    expect(body.error).toMatch(/^Bad Request: malformed JSON body \(/)
  })
  it('a throwing handler: 500 with no message or stack without useStacktrace', async () => {
    t.expectLogged(/^500 on GET \/boom .*: Error: kaboom$/)
    const res = await t.request('/boom')
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: 'Internal Server Error' })
  })
  it('a plugin returning an error: 500 error page', async () => {
    t.expectLogged(/^500 on GET \/plugin-error .*plugin failing failed: pool exhausted/)
    const res = await t.request('/plugin-error')
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: 'Internal Server Error' })
  })
  it('httpError(status): that status with the standard page; with a body, that body', async () => {
    const a = await t.request('/http-error')
    expect(a.status).toBe(409)
    expect(await a.json()).toEqual({ error: 'Conflict' })
    const b = await t.request('/http-error-body')
    expect(b.status).toBe(422)
    expect(await b.json()).toEqual({ error: 'missing body' })
    const c = await t.request('/http-error-text')
    expect(c.status).toBe(404)
    expect(await c.json()).toEqual({ error: 'Note 12 not found' })
  })
  it('httpError(status, body, { headers }) adds the headers; the older headers argument too, warned once', async () => {
    forgetDeprecationWarnings()
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      for (const path of ['/http-error-headers', '/http-error-old-headers', '/http-error-old-headers']) {
        const res = await t.request(path)
        expect(res.status).toBe(410)
        expect(res.headers.get('x-upgrade')).toBe('v2')
        expect(await res.json()).toEqual({ error: 'API v1 is gone' })
      }
      expect(warnings.mock.calls.map(([message, o]) => [(o as { code: string }).code, String(message)])).toEqual([
        [
          'VELA_DEP_HTTP_ERROR_HEADERS',
          'httpError(status, body, headers) is deprecated: write httpError(status, body, { headers })',
        ],
      ])
    } finally {
      warnings.mockRestore()
      forgetDeprecationWarnings()
    }
  })
  it("status routes replace the built-in pages within their group's prefix", async () => {
    t.expectLogged(/^500 on GET \/custom\/boom .*: Error: kaboom$/)
    const missing = await t.request('/custom/not-here')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'nothing at /custom/not-here', custom: true })
    const thrown404 = await t.request('/custom/gone')
    expect(thrown404.status).toBe(404)
    expect(await thrown404.json()).toEqual({ error: 'nothing at /custom/gone', custom: true })
    const boom = await t.request('/custom/boom')
    expect(boom.status).toBe(503)
    expect(await boom.json()).toEqual({ error: 'custom 500 page' })
    // Outside the prefix the built-in page stays.
    expect(await (await t.request('/elsewhere')).json()).toEqual({ error: 'Not Found' })
  })
})

describeModes('errors with useStacktrace', config(true), (t) => {
  it('500 responses carry the message and the stack trace (JSON and HTML)', async () => {
    t.expectLogged(/^500 on GET \/boom .*: Error: kaboom$/)
    const res = await t.request('/boom')
    const body = (await res.json()) as { error: string; stack: string[] }
    expect(res.status).toBe(500)
    expect(body.error).toBe('kaboom')
    expect(body.stack[0]).toBe('Error: kaboom')
    expect(body.stack.some((l) => l.includes('errors.test.ts'))).toBe(true)
    const html = await (await t.request({ url: '/boom', headers: { accept: 'text/html' } })).text()
    expect(html).toContain('<pre>Error: kaboom')
  })
})
