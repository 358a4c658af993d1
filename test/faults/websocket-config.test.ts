/**
 * WebSocket and config faults, on real processes and sockets.
 *
 * WebSockets: an app with the default limits runs in a child process
 * (test/fixtures/websocket-app.ts), so its memory is its own (VmRSS). Messages over
 * `maxMessageBytes` are streamed from raw sockets (test/support/raw-websocket.ts): the server must
 * close with 1009 on the frame header, without reading the payload. A client that stops reading
 * must not make the server queue more than `maxBufferedBytes`.
 *
 * Config: a built app (test/fixtures/config-app, `vite build`, run with plain node as in
 * production) whose server keys come from the environment: a config node would refuse at listen
 * is refused when the app is created, in one line naming the key, before its start hook runs.
 *
 * The two describes share nothing and run side by side; about 10 s.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import vela from '../../vite-plugin/index.ts'
import { runBuiltToExit, startBuilt } from '../../vite-plugin/test/built-app.ts'
import type { ChildApp } from '../support/child-app.ts'
import { startChildApp } from '../support/child-app.ts'
import { openRawWebSocket, streamMessage } from '../support/raw-websocket.ts'

const MiB = 1024 * 1024

/** Sends `message` on a new connection to `url` and resolves with the first answer, or the close code if it closes first. */
function exchange(url: string, message: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    const timer = setTimeout(() => (ws.terminate(), reject(new Error('no answer within 5 s'))), 5000)
    const done = (answer: string) => (clearTimeout(timer), ws.close(), resolve(answer))
    ws.once('open', () => ws.send(message))
    ws.once('message', (data) => done(String(data)))
    ws.once('close', (code) => done(`closed ${code}`))
    ws.once('error', reject)
  })
}

describe.concurrent('websocket and config faults', () => {
  describe('bounded WebSockets', { concurrent: false }, () => {
    let app: ChildApp
    beforeAll(async () => {
      app = await startChildApp(new URL('../fixtures/websocket-app.ts', import.meta.url), { nodeArgs: ['--expose-gc'] })
    })
    /** Bytes the app's buffers hold after a full garbage collection. */
    const held = async () => ((await (await fetch(`${app.url}/memory`)).json()) as NodeJS.MemoryUsage).arrayBuffers
    /** What the app's buffers hold beyond `baseline` once that is under 1 MiB (closing sockets still release theirs), or after 3 s. */
    const heldBeyond = async (baseline: number) => {
      const until = performance.now() + 3000
      let beyond = (await held()) - baseline
      while (beyond >= MiB && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 100))
        beyond = (await held()) - baseline
      }
      return beyond
    }

    it('8 clients sending 32 MiB messages each get 1009 before the payload is read, memory stays put, and 1 MiB messages still pass', async () => {
      const echo = `${app.url.replace('http', 'ws')}/echo`
      expect(await exchange(echo, Buffer.alloc(MiB))).toBe(`${MiB} bytes`)
      const heldBefore = await held()
      const before = app.rss()
      let peak = before
      const sampler = setInterval(() => (peak = Math.max(peak, app.rss())), 10)
      try {
        const clients = await Promise.all(Array.from({ length: 8 }, () => openRawWebSocket(app.port, '/echo')))
        const outcomes = await Promise.all(
          clients.map(async (client) => {
            let answered = false
            const answer = client.firstFrame(5000).finally(() => (answered = true))
            const sent = await streamMessage(client.socket, 32 * MiB, () => answered)
            const outcome = { answer: await answer, sent }
            client.socket.destroy()
            return outcome
          }),
        )
        for (const { answer, sent } of outcomes) {
          expect(answer).toBe('close 1009')
          // Cut short: the client saw the close long before its message was through.
          expect(sent).toBeLessThan(32 * MiB)
        }
      } finally {
        clearInterval(sampler)
      }
      // Old code held every message whole: 8 × 32 MiB.
      expect(peak - before).toBeLessThan(48 * MiB)
      expect(await heldBeyond(heldBefore)).toBeLessThan(MiB)
      expect(await exchange(echo, Buffer.alloc(MiB + 1))).toBe('closed 1009')
      expect(await exchange(echo, Buffer.alloc(100))).toBe('100 bytes')
    })

    it('a client that stops reading: sends stop at maxBufferedBytes, it is closed with 1013 (destroyed if it never reads it), memory returns', async () => {
      const heldBefore = await held()
      const stalled = await openRawWebSocket(app.port, '/flood?id=stalled')
      const slow = await openRawWebSocket(app.port, '/flood?id=slow')
      stalled.socket.pause()
      slow.socket.pause()
      for (const id of ['slow', 'stalled']) {
        const stopped = await app.line(new RegExp(`^FLOOD-(STOPPED|UNBOUNDED) ${id} `), 10_000)
        // The slow client reads again as soon as it is stopped: its backlog, then the close frame
        // behind it, within the second the server gives it (waiting for the other line first could
        // take longer than that on a busy machine).
        if (id === 'slow') slow.socket.resume()
        const peak = Number(/peak=(\d+)$/.exec(stopped)![1])
        expect(stopped.startsWith('FLOOD-STOPPED'), stopped).toBe(true)
        // The bound (4 MiB by default) plus the one 64 KiB message that went over it.
        expect(peak).toBeLessThanOrEqual(4 * MiB + 64 * 1024)
      }
      // Bounded generously: the server sent it within its grace; a busy machine may deliver it late.
      expect(await slow.closeCode(20_000)).toBe(1013)
      // The stalled one never reads it: its socket is destroyed after `closeTimeout` (5 s here).
      expect(await app.line(/^CLOSED stalled /, 20_000)).toBe('CLOSED stalled 1013')
      expect(await app.line(/^CLOSED slow /, 20_000)).toBe('CLOSED slow 1013')
      stalled.socket.destroy()
      slow.socket.destroy()
      // Nothing of the backlogs is held once the connections are gone.
      expect(await heldBeyond(heldBefore)).toBeLessThan(MiB)
    })
  })

  describe('config checked before the start hook', () => {
    const REPO = fileURLToPath(new URL('../../', import.meta.url))
    let root: string
    let markers: string
    beforeAll(async () => {
      // Inside the repo, so the app's `vela` imports resolve to this package.
      mkdirSync(join(REPO, '.scratch'), { recursive: true })
      root = mkdtempSync(join(REPO, '.scratch', 'config-app-'))
      cpSync(fileURLToPath(new URL('../fixtures/config-app', import.meta.url)), root, { recursive: true })
      markers = mkdtempSync(join(tmpdir(), 'vela-config-markers-'))
      await build({ root, configFile: false, plugins: [vela()], logLevel: 'silent' })
    })
    afterAll(() => {
      for (const dir of [root, markers]) if (dir) rmSync(dir, { recursive: true, force: true })
    })
    const marker = (name: string) => join(markers, name)

    it('requestTimeout: 5000 alone: headersTimeout follows it down and the server starts (it crashed at listen, after the start hook)', async () => {
      const server = await startBuilt(join(root, 'dist'), {
        APP_REQUEST_TIMEOUT: '5000',
        START_MARKER: marker('alone'),
      })
      try {
        expect(await (await fetch(`${server.url}/ping`)).json()).toEqual({ pong: true })
        expect(existsSync(marker('alone'))).toBe(true)
      } finally {
        expect(await server.stop()).toBe(0)
      }
    })

    it('a contradiction, a bad port, a negative limit: exit 1 with one line naming the key and the value; the start hook never ran', async () => {
      const runs = {
        timeouts: { APP_REQUEST_TIMEOUT: '5000', APP_HEADERS_TIMEOUT: '10000' },
        port: { APP_PORT: '70000', PORT: '' },
        body: { APP_BODY_LIMIT: '-1' },
        websocket: { APP_WS_MAX_MESSAGE: '0' },
      }
      // A server that starts anyway (it should not) is killed after 60 s (a bound for a busy machine): code null.
      const results = await Promise.all(
        Object.entries(runs).map(([name, env]) =>
          runBuiltToExit(join(root, 'dist'), { ...env, START_MARKER: marker(name) }, 60_000),
        ),
      )
      const lines = results.map(({ code, output }) => ({ code, output: output.trim() }))
      const refused = (message: string) => ({ code: 1, output: `vela: configured (prod) could not start: ${message}` })
      expect(lines).toEqual([
        refused(
          'server.headersTimeout (10000) must not exceed server.requestTimeout (5000): the headers are part of the request; lower headersTimeout or raise requestTimeout',
        ),
        refused('server.port must be an integer from 0 to 65535, got 70000'),
        refused('server.bodyLimit must be a positive whole number of bytes, got -1'),
        refused('server.websocket.maxMessageBytes must be a positive whole number of bytes, got 0'),
      ])
      for (const name of Object.keys(runs))
        expect(existsSync(marker(name)), `the start hook ran for ${name}`).toBe(false)
    })
  })
})
