// Byte ranges and conditional requests on staticDir, in-process and over real HTTP: 206 with
// Content-Range and the exact bytes (small files read whole, large ones streamed), 416 with
// `bytes */size`, several ranges answered whole, If-Range by ETag and by date, If-None-Match
// winning over Range, Accept-Ranges on every answer.
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { describeModes } from '../../test/support/modes.ts'
import type { RouteGroup } from '../contracts/routes.ts'
import { byteRange } from './ranges.ts'
import { staticDir } from './static-dir.ts'

const dir = mkdtempSync(join(tmpdir(), 'vela-ranges-'))
// Every byte differs from its neighbours, so a wrong offset shows.
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 8)) & 0xff))
const small = bytes(1000)
const large = bytes(300 * 1024 + 17)
writeFileSync(join(dir, 'small.bin'), small)
writeFileSync(join(dir, 'large.bin'), large)
writeFileSync(join(dir, 'empty.bin'), '')
const mtime = new Date('2024-05-01T12:00:00Z')
for (const f of ['small.bin', 'large.bin']) utimesSync(join(dir, f), mtime, mtime)

const group: RouteGroup = { prefix: '', security: false, routes: [['/f/[...]', staticDir(dir)]] }

it('byteRange: one range of each form; invalid ones ignored; unsatisfiable ones said so', () => {
  expect(byteRange(undefined, 100)).toEqual({ kind: 'whole' })
  expect(byteRange('bytes=0-9', 100)).toEqual({ kind: 'part', start: 0, end: 9 })
  expect(byteRange('bytes=90-', 100)).toEqual({ kind: 'part', start: 90, end: 99 })
  expect(byteRange('bytes=-10', 100)).toEqual({ kind: 'part', start: 90, end: 99 })
  expect(byteRange('bytes=-1000', 100)).toEqual({ kind: 'part', start: 0, end: 99 })
  expect(byteRange('bytes=50-5000', 100)).toEqual({ kind: 'part', start: 50, end: 99 })
  expect(byteRange('Bytes = 1 - 2', 100)).toEqual({ kind: 'whole' })
  for (const whole of ['bytes=5-2', 'bytes=-', 'items=0-1', 'bytes=a-b', 'bytes=0-1,5-6', 'bytes=0-1, 5-6'])
    expect(byteRange(whole, 100), whole).toEqual({ kind: 'whole' })
  for (const none of ['bytes=100-', 'bytes=100-200', 'bytes=-0', 'bytes=99999999999999999999-'])
    expect(byteRange(none, 100), none).toEqual({ kind: 'unsatisfiable' })
  expect(byteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' })
  expect(byteRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' })
})

describeModes('staticDir ranges', { bootstrapApplication: 'ranges', routes: { r: group } }, (t) => {
  const get = (file: string, headers: Record<string, string> = {}) => t.request({ url: `/f/${file}`, headers })
  const body = async (res: Response) => Buffer.from(await res.arrayBuffer())

  it('a 206 with Content-Range and exactly those bytes, for a small and a large file, in each form', async () => {
    for (const [file, data] of [
      ['small.bin', small],
      ['large.bin', large],
    ] as const) {
      const n = data.length
      const cases: [string, number, number][] = [
        ['bytes=0-0', 0, 0],
        ['bytes=10-99', 10, 99],
        [`bytes=${n - 5}-`, n - 5, n - 1],
        ['bytes=-7', n - 7, n - 1],
        [`bytes=100-${n + 1000}`, 100, n - 1],
        // Across the 64 KiB chunks a large file is read in.
        ...(n > 70_000 ? [['bytes=65530-70000', 65530, 70000] as [string, number, number]] : []),
      ]
      for (const [range, start, end] of cases) {
        const res = await get(file, { range })
        expect(res.status, `${file} ${range}`).toBe(206)
        expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${n}`)
        expect(res.headers.get('content-length'), range).toBe(String(end - start + 1))
        expect(res.headers.get('accept-ranges')).toBe('bytes')
        expect((await body(res)).equals(data.subarray(start, end + 1)), `${file} ${range}`).toBe(true)
      }
    }
  })

  it('unsatisfiable: 416 with Content-Range bytes */size', async () => {
    for (const [file, range, size] of [
      ['large.bin', `bytes=${large.length}-`, large.length],
      ['small.bin', 'bytes=-0', small.length],
      ['empty.bin', 'bytes=0-', 0],
    ] as const) {
      const res = await get(file, { range })
      expect(res.status, range).toBe(416)
      expect(res.headers.get('content-range')).toBe(`bytes */${size}`)
      await res.arrayBuffer()
    }
  })

  it('several ranges, or a header that is no byte range, get the whole file (200)', async () => {
    for (const range of ['bytes=0-9,20-29', 'bytes=9-0', 'lines=1-2']) {
      const res = await get('large.bin', { range })
      expect(res.status, range).toBe(200)
      expect(res.headers.get('content-range')).toBeNull()
      expect(res.headers.get('accept-ranges')).toBe('bytes')
      expect((await body(res)).equals(large), range).toBe(true)
    }
  })

  it('If-Range: the current ETag or Last-Modified gives the range, anything else the whole file', async () => {
    const head = await t.request({ method: 'HEAD', url: '/f/large.bin' })
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect(head.headers.get('content-length')).toBe(String(large.length))
    const etag = head.headers.get('etag')!
    for (const ifRange of [etag, mtime.toUTCString()]) {
      const res = await get('large.bin', { range: 'bytes=5-9', 'if-range': ifRange })
      expect(res.status, ifRange).toBe(206)
      expect((await body(res)).equals(large.subarray(5, 10))).toBe(true)
    }
    for (const ifRange of ['"other"', `W/${etag}`, new Date(mtime.getTime() - 1000).toUTCString(), 'garbage']) {
      const res = await get('large.bin', { range: 'bytes=5-9', 'if-range': ifRange })
      expect(res.status, ifRange).toBe(200)
      expect((await body(res)).equals(large), ifRange).toBe(true)
    }
  })

  it('a current If-None-Match is a 304 whatever the Range; a stale one serves the range; HEAD ignores Range', async () => {
    const etag = (await t.request({ method: 'HEAD', url: '/f/large.bin' })).headers.get('etag')!
    const fresh = await get('large.bin', { range: 'bytes=0-9', 'if-none-match': etag })
    expect(fresh.status).toBe(304)
    expect(fresh.headers.get('content-range')).toBeNull()
    expect(await fresh.text()).toBe('')
    const stale = await get('large.bin', { range: 'bytes=0-9', 'if-none-match': '"old"' })
    expect(stale.status).toBe(206)
    expect((await body(stale)).equals(large.subarray(0, 10))).toBe(true)
    const head = await t.request({ method: 'HEAD', url: '/f/large.bin', headers: { range: 'bytes=0-9' } })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(large.length))
  })
})
