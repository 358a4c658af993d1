/**
 * Static files and file descriptors, over a real listener on 127.0.0.1 and raw sockets: thousands
 * of GET-then-close connections to a 1.7 MB file, and every other way a file response can end
 * without its body being read (HEAD, 304, a range, a post plugin replacing the reply, a deadline's
 * 503 preempting it), each leave the process's open descriptor count (/proc/self/fd) back at its
 * baseline and the server answering. A process out of descriptors (`open` and `readFile` failing
 * with EMFILE or ENFILE, injected) answers a logged 503 with `Retry-After`, for small files (read
 * whole) and large ones (streamed), and serves again once descriptors are back. Logs are strict: an
 * undeclared line fails the case.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp, definePlugin, ok, securityHeaders, staticDir, status, stop } from '../../server/index.ts'
import type { TestServer } from '../../server/testing/index.ts'
import { startTestServer } from '../../server/testing/index.ts'
import { strictLog } from '../support/logs.ts'
import { rawRequest } from '../support/raw-http.ts'
import { until } from '../support/until.ts'

// Descriptors run out on request: `open` and `readFile` fail as a process at its limit sees them.
const exhausted: { code: 'EMFILE' | 'ENFILE' | undefined } = { code: undefined }
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const fail = (syscall: string, path: unknown) =>
    Object.assign(new Error(`${exhausted.code}: too many open files, ${syscall} '${String(path)}'`), {
      code: exhausted.code,
      syscall,
      path,
    })
  const open: typeof real.open = (path, ...rest) =>
    exhausted.code ? Promise.reject(fail('open', path)) : real.open(path, ...rest)
  const readFile = ((path: Parameters<typeof real.readFile>[0], ...rest: []) =>
    exhausted.code ? Promise.reject(fail('open', path)) : real.readFile(path, ...rest)) as typeof real.readFile
  return { ...real, default: { ...real, open, readFile }, open, readFile }
})

const logs = strictLog()
const dir = mkdtempSync(join(tmpdir(), 'vela-static-fds-'))
// The size of the playground's explorer bundle, where the leak was found.
const bundle = Buffer.alloc(1_700_000, 'explorer();')
writeFileSync(join(dir, 'bundle.js'), bundle)
writeFileSync(join(dir, 'small.txt'), 'small file')

let release: () => void = () => {}
const gate = () => new Promise<void>((resolve) => (release = resolve))
const replacing = definePlugin({
  name: 'replacing',
  info: { title: 'r', version: '1', author: 't', description: 'replaces the reply', options: {} },
  postRequest: (_req) => stop(status(200, 'replaced')),
})
const slow = definePlugin({
  name: 'slow',
  info: { title: 's', version: '1', author: 't', description: 'waits for the test', options: {} },
  postRequest: async (req) => (await gate(), ok(req)),
})

const app = createApp(
  {
    bootstrapApplication: 'static-fds',
    // Every reply carries them, the 503 of a file that cannot be opened included.
    onResponse: [securityHeaders()],
    routes: {
      files: { prefix: '', security: false, routes: [['/assets/[...]', staticDir(dir)]] },
      replaced: {
        prefix: '/replaced',
        security: false,
        plugins: [replacing()],
        routes: [['/[...]', staticDir(dir)]],
      },
      late: {
        prefix: '/late',
        security: false,
        plugins: [slow()],
        routes: [['/[...]', staticDir(dir), { handlerTimeout: 100 }]],
      },
    },
  },
  { env: {}, log: logs.log },
)

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(app)
})
afterAll(() => server.close({ timeoutMs: 1000 }))

const openDescriptors = () => readdirSync('/proc/self/fd').length

/** Descriptors open now, once a request has warmed the app up (lazy modules, the listener's own). */
async function baseline(): Promise<number> {
  const res = await rawRequest(server.port, 'GET /assets/small.txt HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
  expect(res.status).toBe(200)
  await until('the warm-up connection closed', () => openDescriptors() <= before + 5, 10_000).catch(() => {})
  return openDescriptors()
}
let before = 0

/** Connects, sends `request`, then closes after `readBytes` bytes of the answer (0: at once), or when the server closes. */
function getThenClose(request: string, readBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1')
    let got = 0
    const done = () => (socket.destroy(), resolve())
    socket.setTimeout(10_000, done)
    socket.on('error', done)
    socket.on('close', done)
    socket.on('connect', () => {
      socket.write(request)
      if (readBytes === 0) done()
    })
    socket.on('data', (d) => {
      got += d.length
      if (got >= readBytes) done()
    })
  })
}

/** Runs `total` connections, `batch` at a time. */
async function inBatches(total: number, batch: number, one: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < total; i += batch)
    await Promise.all(Array.from({ length: Math.min(batch, total - i) }, (_, j) => one(i + j)))
}

async function stillServes(): Promise<void> {
  const res = await fetch(`${server.url}/assets/bundle.js`, { signal: AbortSignal.timeout(10_000) })
  expect(res.status).toBe(200)
  expect((await res.arrayBuffer()).byteLength).toBe(bundle.length)
}

describe('static files never leak descriptors', () => {
  it('3,000 GET-then-close connections to a 1.7 MB file: the descriptor count returns to its baseline, the server still answers', async () => {
    before = openDescriptors()
    const base = await baseline()
    const get = 'GET /assets/bundle.js HTTP/1.1\r\nhost: x\r\n\r\n'
    // Closed at once, after the head, and partway through the body, 100 connections at a time.
    await inBatches(3000, 100, (i) => getThenClose(get, [0, 1, 100_000][i % 3]!))
    let now = openDescriptors()
    await until(
      `descriptors back to ${base} (+10) after 3,000 closed connections`,
      () => (now = openDescriptors()) <= base + 10,
      20_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; ${now} open`)
    })
    await stillServes()
  }, 120_000)

  it('HEAD, 304, ranges, a post plugin replacing the reply and a deadline preempting it open nothing that stays open', async () => {
    const base = await baseline()
    const etag = (
      await rawRequest(server.port, 'HEAD /assets/bundle.js HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
    ).headers.etag!
    const requests = [
      'HEAD /assets/bundle.js HTTP/1.1\r\nhost: x\r\n\r\n',
      `GET /assets/bundle.js HTTP/1.1\r\nhost: x\r\nif-none-match: ${etag}\r\n\r\n`,
      'GET /assets/bundle.js HTTP/1.1\r\nhost: x\r\nrange: bytes=1000000-\r\n\r\n',
      'GET /replaced/bundle.js HTTP/1.1\r\nhost: x\r\n\r\n',
    ]
    await inBatches(400, 100, (i) => getThenClose(requests[i % requests.length]!, i % 8 < 4 ? 0 : 1))
    const replaced = await rawRequest(
      server.port,
      'GET /replaced/bundle.js HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
    )
    expect([replaced.status, replaced.body]).toEqual([200, 'replaced'])

    // The deadline's 503 goes out; the file response the post plugin lets through later is dropped.
    logs.expectLogged(/^503 on GET \/late\/bundle\.js .*no answer within 100 ms/)
    for (let i = 0; i < 20; i++) {
      const late = await rawRequest(server.port, 'GET /late/bundle.js HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
      expect(late.status).toBe(503)
      release()
    }
    await until(`descriptors back to ${base} (+10)`, () => openDescriptors() <= base + 10, 20_000)
    await stillServes()
  }, 60_000)
})

describe('a process out of descriptors answers 503, logged, and recovers', () => {
  it('EMFILE and ENFILE: a logged 503 with Retry-After for a small and a large file; served again once descriptors are back', async () => {
    for (const code of ['EMFILE', 'ENFILE'] as const) {
      logs.expectLogged(
        new RegExp(
          `^503 on GET /assets/small\\.txt .*cannot open .*small\\.txt: the process has too many open files \\(${code}\\)`,
        ),
      )
      logs.expectLogged(
        new RegExp(
          `^503 on GET /assets/bundle\\.js: cannot open .*bundle\\.js: the process has too many open files \\(${code}\\)`,
        ),
      )
      exhausted.code = code
      try {
        for (const file of ['small.txt', 'bundle.js']) {
          const res = await fetch(`${server.url}/assets/${file}`, { headers: { accept: 'application/json' } })
          expect(res.status, `${code} ${file}`).toBe(503)
          expect(res.headers.get('retry-after')).toBe('1')
          expect(res.headers.get('x-content-type-options'), `${code} ${file}`).toBe('nosniff')
          expect(await res.json()).toEqual({ error: 'Service Unavailable', code: 'VELA_ERR_FILE_UNAVAILABLE' })
        }
      } finally {
        exhausted.code = undefined
      }
    }
    await stillServes()
    expect(await (await fetch(`${server.url}/assets/small.txt`)).text()).toBe('small file')
  })
})
