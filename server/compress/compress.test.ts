// Compression: gzip / brotli by Accept-Encoding above a threshold, Vary, never twice, never for
// HEAD / 304 / compressed media types. Over HTTP the bytes are read with node:http, which (unlike
// fetch) does not decode them.
import http from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { expect, it } from 'vitest'
import type { ModeContext } from '../../test/support/modes.ts'
import { describeModes } from '../../test/support/modes.ts'
import { json, status } from '../replies.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { staticDir } from '../static/static-dir.ts'
import { inject } from '../testing/index.ts'
import { createApp } from '../app/create-app.ts'

const items = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}`, text: 'lorem ipsum dolor sit amet' }))
const bigJson = JSON.stringify({ items })
const text = 'streamed line of text\n'.repeat(500)
const assets = mkdtempSync(join(tmpdir(), 'vela-compress-'))
writeFileSync(join(assets, 'page.html'), `<p>${'static '.repeat(400)}</p>`)
const gz = zlib.gzipSync(Buffer.from(bigJson))

function streamOf(s: string, chunk = 100): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(s)
  let at = 0
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close()
      c.enqueue(bytes.slice(at, (at += chunk)))
    },
  })
}

const group: RouteGroup = {
  prefix: '',
  security: false,
  routes: [
    ['GET /big', () => json({ items })],
    ['GET /small', () => json({ ok: true })],
    ['GET /png', () => status(200, 'x'.repeat(5000), { headers: { 'content-type': 'image/png' } })],
    [
      'GET /pre-gzipped',
      () => new Response(gz, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
    ],
    [
      'GET /no-transform',
      () => status(200, text, { headers: { 'content-type': 'text/plain', 'cache-control': 'no-transform' } }),
    ],
    [
      'GET /stream',
      () => new Response(streamOf(text), { headers: { 'content-type': 'text/plain; charset=utf-8', etag: '"v1"' } }),
    ],
    ['GET /stream-short', () => new Response(streamOf('short', 2), { headers: { 'content-type': 'text/plain' } })],
    ['GET /vary', () => status(200, text, { headers: { 'content-type': 'text/plain', vary: 'Origin' } })],
    ['/assets/[...]', staticDir(assets)],
  ],
}

interface Raw {
  status: number
  headers: Record<string, string | undefined>
  body: Buffer
}

async function raw(t: ModeContext, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  if (t.mode === 'in-process') {
    const res = await inject(t.app, { url, headers, method })
    return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) }
  }
  const { port } = new URL((await t.request('/small')).url)
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        )
      })
      .on('error', reject)
      .end()
  })
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br'
    ? zlib.brotliDecompressSync(r.body).toString()
    : r.headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(r.body).toString()
      : r.body.toString()

describeModes(
  'compression',
  { bootstrapApplication: 'compress', server: { options: { compress: true } }, routes: { c: group } },
  (t) => {
    it('gzip, brotli or nothing by Accept-Encoding, with Vary and the encoded length', async () => {
      const cases: [string | undefined, string | undefined][] = [
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['gzip, deflate, br', 'br'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['*', 'br'],
        ['*;q=0.1, gzip;q=0.5', 'gzip'],
        ['br;q=0, gzip;q=0', undefined],
        ['identity', undefined],
        ['deflate', undefined],
        [undefined, undefined],
      ]
      for (const [accept, coding] of cases) {
        const r = await raw(t, '/big', accept === undefined ? {} : { 'accept-encoding': accept })
        expect(r.status).toBe(200)
        expect(r.headers['content-encoding'], String(accept)).toBe(coding)
        expect(r.headers.vary, String(accept)).toBe('Accept-Encoding')
        expect(decode(r), String(accept)).toBe(bigJson)
        if (coding) {
          expect(r.body.length).toBeLessThan(bigJson.length / 3)
          if (r.headers['content-length'] !== undefined) expect(Number(r.headers['content-length'])).toBe(r.body.length)
        }
      }
    })
    it('bodies under the threshold, compressed media types, no-transform and HEAD stay as they are', async () => {
      for (const url of ['/small', '/png', '/no-transform']) {
        const r = await raw(t, url, { 'accept-encoding': 'gzip, br' })
        expect(r.headers['content-encoding'], url).toBeUndefined()
        expect(r.body.length, url).toBeGreaterThan(0)
      }
      const head = await raw(t, '/big', { 'accept-encoding': 'gzip' }, 'HEAD')
      expect(head.headers['content-encoding']).toBeUndefined()
      expect(head.body.length).toBe(0)
    })
    it('never compresses twice', async () => {
      const r = await raw(t, '/pre-gzipped', { 'accept-encoding': 'gzip, br' })
      expect(r.headers['content-encoding']).toBe('gzip')
      expect(zlib.gunzipSync(r.body).toString()).toBe(bigJson)
    })
    it('streams of unknown length: compressed when long (strong ETag made weak), sent as is when short', async () => {
      const long = await raw(t, '/stream', { 'accept-encoding': 'gzip' })
      expect(long.headers['content-encoding']).toBe('gzip')
      expect(long.headers.etag).toBe('W/"v1"')
      expect(decode(long)).toBe(text)
      const br = await raw(t, '/stream', { 'accept-encoding': 'br' })
      expect(decode(br)).toBe(text)
      const short = await raw(t, '/stream-short', { 'accept-encoding': 'gzip' })
      expect(short.headers['content-encoding']).toBeUndefined()
      expect(short.headers['content-length']).toBe('5')
      expect(short.body.toString()).toBe('short')
    })
    it('an existing Vary is extended; static files compress and their 304 does not', async () => {
      expect((await raw(t, '/vary', { 'accept-encoding': 'gzip' })).headers.vary).toBe('Origin, Accept-Encoding')
      const page = await raw(t, '/assets/page.html', { 'accept-encoding': 'br' })
      expect(page.headers['content-encoding']).toBe('br')
      expect(decode(page)).toContain('static static')
      const again = await raw(t, '/assets/page.html', { 'accept-encoding': 'br', 'if-none-match': page.headers.etag! })
      expect(again.status).toBe(304)
      expect(again.headers['content-encoding']).toBeUndefined()
    })
  },
)

describeModes(
  'compression threshold',
  { bootstrapApplication: 'compress', server: { options: { compress: { threshold: 10 } } }, routes: { c: group } },
  (t) => {
    it('a configured threshold compresses small bodies too', async () => {
      const r = await raw(t, '/small', { 'accept-encoding': 'gzip' })
      expect(r.headers['content-encoding']).toBe('gzip')
      expect(decode(r)).toBe('{"ok":true}')
    })
  },
)

it('with compress off nothing is compressed and no Vary is added', async () => {
  const app = createApp({ bootstrapApplication: 'plain', routes: { c: group } }, { env: {} })
  const res = await inject(app, { url: '/big', headers: { 'accept-encoding': 'gzip, br' } })
  expect(res.headers.get('content-encoding')).toBeNull()
  expect(res.headers.get('vary')).toBeNull()
  expect(await res.text()).toBe(bigJson)
})
