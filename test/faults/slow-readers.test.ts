/**
 * Slow readers, over a real listener on 127.0.0.1 with `server.sendTimeout` at 500 ms: clients that
 * request a 16 MB static file or an 8 MB JSON reply and then read nothing (a paused socket: the
 * kernel's buffers fill, then node's write backs up) have their connections closed by the server
 * once the timeout passes, with what was written to each bounded (a streamed file is read only as
 * fast as the client takes it, never ahead), and no longer held by the server; meanwhile and
 * afterwards other clients are answered, and a client reading at full speed gets the whole file
 * however long that takes. Stalled readers that pipeline three requests for the file each leave
 * no descriptor open once the timeout has closed them (counted in /proc/self/fd), and none for
 * the garbage collector to close with a warning. Assertions are on the server's sockets
 * (destroyed, `bytesWritten`, the server's connection count) and descriptors, not on RSS, so a
 * busy machine does not make them flaky.
 */
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, json, staticDir } from '../../server/index.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { strictLog } from '../support/logs.ts'
import { until } from '../support/until.ts'

const logs = strictLog()
const dir = mkdtempSync(join(tmpdir(), 'vela-slow-readers-'))
const FILE = 16 * 1024 * 1024
writeFileSync(join(dir, 'large.bin'), Buffer.alloc(FILE, 7))
const largeFile = realpathSync(join(dir, 'large.bin'))
// About 8 MB of JSON, encoded once per request like any reply.
const rows = Array.from({ length: 80_000 }, (_, i) => ({ id: i, text: 'x'.repeat(80) }))

const app = createApp(
  {
    bootstrapApplication: 'slow-readers',
    server: { sendTimeout: 500 },
    routes: {
      r: {
        prefix: '',
        security: false,
        routes: [
          ['/files/[...]', staticDir(dir)],
          ['GET /rows', () => json(rows)],
          ['GET /ping', () => json({ pong: true })],
        ],
      },
    },
  },
  { env: {}, log: logs.log },
)

let server: TestServer
const accepted: Socket[] = []
beforeAll(async () => {
  server = await startTestServer(app)
  server.server.on('connection', (socket: Socket) => void accepted.push(socket))
})
afterAll(() => server.close({ timeoutMs: 1000 }))

/**
 * A client that sends `path` (`times` requests in a row, pipelined, as slowhttptest's slow-read
 * mode repeats its request) and then never reads: its socket is paused from the start.
 */
function stalledReader(path: string, times = 1): Socket {
  const socket = net.connect({ port: server.port, host: '127.0.0.1' })
  socket.pause()
  socket.on('error', () => {})
  socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`.repeat(times)))
  return socket
}

const descriptors = () => readdirSync('/proc/self/fd')
/** The process's open descriptors of `file` (/proc/self/fd links to what each one names). */
const descriptorsOf = (file: string) =>
  descriptors().filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file
    } catch {
      return false // closed between the listing and the read
    }
  }).length

async function pingWithin(ms: number): Promise<void> {
  const t0 = performance.now()
  const res = await fetch(`${server.url}/ping`, { signal: AbortSignal.timeout(10_000) })
  expect(await res.json()).toEqual({ pong: true })
  expect(performance.now() - t0).toBeLessThan(ms)
}

describe('server.sendTimeout', () => {
  it('stalled readers of a 16 MB file and an 8 MB JSON reply are closed after the timeout, with bounded bytes written and nothing left held', async () => {
    const from = accepted.length
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      )
    const before = await open()
    const clients = [
      ...Array.from({ length: 20 }, () => stalledReader('/files/large.bin')),
      ...Array.from({ length: 20 }, () => stalledReader('/rows')),
    ]
    try {
      await until('40 connections accepted', () => accepted.length >= from + 40, 60_000)
      const mine = accepted.slice(from, from + 40)
      // The server is still answering others while they stall.
      await pingWithin(5000)
      await until('every stalled connection closed by the server', () => mine.every((s) => s.destroyed), 60_000)
      // Closed on the server's side: node no longer counts them, so what they buffered can go.
      // (+2: the keep-alive connections of the pings.)
      await until('the server holds none of them', async () => (await open()) <= before + 2, 60_000)
      // A file is read only as the client takes it: what went out is the kernel's buffers' worth, not the file.
      const fileWritten = mine.slice(0, 20).map((s) => s.bytesWritten)
      if (process.env.VELA_TEST_LOG) console.log('bytes written per stalled file reader', fileWritten)
      expect(Math.max(...fileWritten), `bytes written per stalled file reader: ${fileWritten.join(', ')}`).toBeLessThan(
        FILE / 2,
      )
    } finally {
      for (const c of clients) c.destroy()
    }
    await pingWithin(5000)
  }, 60_000)

  it('pipelined stalled readers of a file, closed by the timeout, leave no descriptor open, not even for the garbage collector to close', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => void warnings.push(warning.message)
    process.on('warning', onWarning)
    await pingWithin(5000)
    const base = descriptors().length
    const from = accepted.length
    // Three requests each: the first stalls, the two behind it wait on the same connection.
    const clients = Array.from({ length: 30 }, () => stalledReader('/files/large.bin', 3))
    try {
      await until('30 connections accepted', () => accepted.length >= from + 30, 60_000)
      const mine = accepted.slice(from, from + 30)
      await pingWithin(5000)
      await until('every stalled connection closed by the server', () => mine.every((s) => s.destroyed), 60_000)
      // Each was sent the start of the file before it stalled.
      expect(mine.filter((s) => s.bytesWritten < 64 * 1024)).toEqual([])
      for (const c of clients) c.destroy()
      let open = { file: 0, all: 0 }
      await until(
        'descriptors back to their baseline',
        () => {
          open = { file: descriptorsOf(largeFile), all: descriptors().length }
          return open.file === 0 && open.all <= base + 10
        },
        10_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${open.file} of the file open, ${open.all} in all (baseline ${base})`)
      })
      await pingWithin(5000)
      expect(warnings.filter((w) => w.includes('on garbage collection'))).toEqual([])
    } finally {
      process.off('warning', onWarning)
      for (const c of clients) c.destroy()
    }
  }, 60_000)

  it('a client reading at full speed gets the whole file and the whole reply, however long each takes', async () => {
    for (const path of ['/files/large.bin', '/rows']) {
      const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(30_000) })
      expect(res.status).toBe(200)
      const body = await res.arrayBuffer()
      expect(body.byteLength, path).toBe(Number(res.headers.get('content-length')))
    }
  }, 60_000)
})
