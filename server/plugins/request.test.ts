// The request plugin: JSON and form decoding into req.params / req.json, the query, 415; the older
// option names.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import { createApp } from '../app/create-app.ts'
import { forgetDeprecationWarnings } from '../deprecation.ts'
import { inject } from '../testing/index.ts'
import { json } from '../replies.ts'
import { requestPlugin } from './request.ts'
import type { RequestPluginOptions } from './request.ts'

const echo = (req: { params: unknown; json: unknown }) => json({ params: req.params, json: req.json ?? null })
const group = (prefix: string, options: RequestPluginOptions) => ({
  prefix,
  security: false as const,
  plugins: [requestPlugin(options)],
  routes: [['ALL /', echo] as const],
})

describeModes(
  'request plugin',
  {
    bootstrapApplication: 'request',
    routes: {
      r: [
        group('/json', { json: true }),
        group('/form', { urlencoded: true }),
        group('/both', { json: true, urlencoded: true, query: true }),
        group('/pass', { json: true, pass: ['text/*'] }),
        group('/off', {}),
      ],
    },
  },
  (t) => {
    const post = (url: string, type: string | undefined, body: string, method = 'POST') =>
      t.request({ method, url, headers: type ? { 'content-type': type } : {}, body })

    it('json: application/json (any parameters) sets req.json and req.params', async () => {
      const res = await post('/json', 'application/json; charset=utf-8', '{"name":"Widget","price":1999}')
      expect(await res.json()).toEqual({
        params: { name: 'Widget', price: 1999 },
        json: { name: 'Widget', price: 1999 },
      })
      const put = await post('/json', 'application/json', '{"a":1}', 'PUT')
      expect(await put.json()).toEqual({ params: { a: 1 }, json: { a: 1 } })
    })
    it('a JSON array or scalar sets req.json only', async () => {
      expect(await (await post('/json', 'application/json', '[1,2]')).json()).toEqual({ params: {}, json: [1, 2] })
    })
    it('GET and DELETE bodies are not decoded; no body leaves params empty', async () => {
      expect(
        await (
          await t.request({
            method: 'DELETE',
            url: '/json',
            headers: { 'content-type': 'application/json' },
            body: '{"a":1}',
          })
        ).json(),
      ).toEqual({ params: {}, json: null })
      expect(await (await t.request({ method: 'POST', url: '/json' })).json()).toEqual({ params: {}, json: null })
    })
    it('an empty JSON body is a 400', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/json',
        headers: { 'content-type': 'application/json', 'content-length': '2' },
        body: '  ',
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'Bad Request: the JSON body is empty' })
    })
    it('Content-Length: 0 or no body under a JSON content type is a 400 too; without one nothing is read', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/json',
        headers: { 'content-type': 'application/json', 'content-length': '0' },
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'Bad Request: the JSON body is empty' })
      const patch = await t.request({
        method: 'PATCH',
        url: '/both?a=1',
        headers: { 'content-type': 'application/merge-patch+json' },
      })
      expect(await patch.json()).toEqual({ error: 'Bad Request: the JSON body is empty' })
      const form = await t.request({
        method: 'POST',
        url: '/both?a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(await form.json()).toEqual({ params: { a: '1' }, json: null })
    })
    it('__proto__, constructor and prototype keys are dropped from JSON at every depth, from forms and from the query', async () => {
      const body =
        '{"__proto__":{"isAdmin":true},"a":{"constructor":{"prototype":{"x":1}},"b":[{"prototype":1,"c":2}]},"\\u005f_proto__":{"y":1},"ok":"constructor"}'
      const res = await post('/both?__proto__=a&__proto__=b&constructor=c&prototype=d&q=1', 'application/json', body)
      expect(await res.json()).toEqual({
        params: { q: '1', a: { b: [{ c: 2 }] }, ok: 'constructor' },
        json: { a: { b: [{ c: 2 }] }, ok: 'constructor' },
      })
      const form = await post(
        '/form',
        'application/x-www-form-urlencoded',
        '__proto__=x&__proto__=y&constructor=1&prototype=2&toString=3&hasOwnProperty=4&hasOwnProperty=5',
      )
      expect(await form.json()).toEqual({ params: { toString: '3', hasOwnProperty: ['4', '5'] }, json: null })
    })
    it('urlencoded: a form body becomes req.params; repeated fields become arrays', async () => {
      const res = await post(
        '/form',
        'application/x-www-form-urlencoded',
        'title=Hello+world&body=caf%C3%A9&tag=a&tag=b',
      )
      expect(await res.json()).toEqual({ params: { title: 'Hello world', body: 'café', tag: ['a', 'b'] }, json: null })
    })
    it('query merges the query string; body fields win', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/both?page=2&name=query',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"body"}',
      })
      expect(await res.json()).toEqual({ params: { page: '2', name: 'body' }, json: { name: 'body' } })
      expect(await (await t.request('/both?q=x')).json()).toEqual({ params: { q: 'x' }, json: null })
    })
    it('a body of a type no enabled decoder reads is a 415 that says what to send', async () => {
      const res = await post('/json', 'text/plain', '{"name":"Widget"}')
      expect(res.status).toBe(415)
      expect(await res.json()).toEqual({
        error: 'Unsupported Media Type: content type text/plain is not accepted here; send application/json',
      })
      const none = await t.request({ method: 'POST', url: '/form', body: new TextEncoder().encode('a=1') })
      expect(none.status).toBe(415)
    })
    it('pass lets listed types through undecoded; no decoders enabled means nothing is checked', async () => {
      expect((await post('/pass', 'text/csv', 'a,b')).status).toBe(200)
      expect((await post('/off', 'text/plain', 'x')).status).toBe(200)
    })
  },
)

describeModes(
  'request plugin under server.maxFields (3 here)',
  {
    bootstrapApplication: 'request',
    server: { maxFields: 3 },
    routes: { r: [group('/both', { urlencoded: true, query: true })] },
  },
  (t) => {
    const post = (url: string, body: string) =>
      t.request({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
    it('a form or query string over server.maxFields (3 here) is a 413 or a 414 naming the limit', async () => {
      expect(await (await post('/both', 'a=1&a=2&b=3')).json()).toEqual({
        params: { a: ['1', '2'], b: '3' },
        json: null,
      })
      const big = await post('/both', 'a=1&a=2&b=3&c=4')
      expect(big.status).toBe(413)
      expect(await big.json()).toEqual({ error: 'Payload Too Large: the form has more than 3 fields' })
      expect(await (await post('/both?x=1&&y=2&z=3', 'a=1')).json()).toEqual({
        params: { x: '1', y: '2', z: '3', a: '1' },
        json: null,
      })
      const query = await t.request('/both?x=1&y=2&z=3&w=4')
      expect(query.status).toBe(414)
      expect(await query.json()).toEqual({ error: 'URI Too Long: the query string has more than 3 fields' })
    })
  },
)

describe('request plugin over a web Request without Content-Length (app.fetch, other runtimes)', () => {
  const app = createApp(
    { bootstrapApplication: 'request', routes: { r: [group('/json', { json: true })] } },
    { env: {} },
  )
  const send = (body: BodyInit | undefined) =>
    app.fetch(
      new Request('http://localhost/json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    )

  it('a body is read even without the header; none at all is a 400', async () => {
    expect(await (await send('{"a":1}')).json()).toEqual({ params: { a: 1 }, json: { a: 1 } })
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('{"b":2}')), c.close()) })
    expect(await (await send(stream)).json()).toEqual({ params: { b: 2 }, json: { b: 2 } })
    const none = await send(undefined)
    expect(none.status).toBe(400)
    expect(await none.json()).toEqual({ error: 'Bad Request: the JSON body is empty' })
  })
})

describe('request plugin: the older option names', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    forgetDeprecationWarnings()
  })

  it('decodeJsonBody, readUrlencodedBody and parseQs still work, with one deprecation warning', async () => {
    forgetDeprecationWarnings()
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    const older = (prefix: string, options: RequestPluginOptions) => ({
      prefix,
      security: false as const,
      plugins: [['pre_request', requestPlugin, options] as const],
      routes: [['ALL /', echo] as const],
    })
    const app = createApp(
      {
        bootstrapApplication: 'request',
        routes: {
          r: [older('/json', { decodeJsonBody: true, parseQs: true }), older('/form', { readUrlencodedBody: true })],
        },
      },
      { env: {} },
    )
    const decoded = await inject(app, {
      method: 'POST',
      url: '/json?page=2',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    })
    expect(await decoded.json()).toEqual({ params: { page: '2', a: 1 }, json: { a: 1 } })
    const form = await inject(app, {
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    })
    expect(await form.json()).toEqual({ params: { a: '1' }, json: null })
    expect(warnings.mock.calls.map(([message, o]) => [(o as { code: string }).code, String(message)])).toEqual([
      [
        'VELA_DEP_REQUEST_PLUGIN_OPTIONS',
        'requestPlugin options decodeJsonBody, readUrlencodedBody and parseQs are deprecated; use json, urlencoded and query',
      ],
    ])
  })
})
