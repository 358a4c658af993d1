// Graceful shutdown: on SIGTERM/SIGINT in-flight requests finish with 200, new connections are
// refused, WebSockets close with 1001, the stop hook runs, the process exits 0. The app runs in a
// child process (test/fixtures/shutdown-app.ts) that really receives the signal.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'

const fixture = new URL('../../test/fixtures/shutdown-app.ts', import.meta.url).pathname

interface Child {
  proc: ChildProcess
  url: string
  stopFile: string
  /** Resolves when a stdout line matches. */
  line(pattern: RegExp): Promise<string>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

async function startChild(env: Record<string, string> = {}): Promise<Child> {
  const stopFile = join(mkdtempSync(join(tmpdir(), 'vela-shutdown-')), 'stopped.txt')
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, ...env, STOP_FILE: stopFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(proc)
  const lines: string[] = []
  const waiters: Array<{ pattern: RegExp; resolve: (l: string) => void }> = []
  let buf = ''
  proc.stdout!.on('data', (chunk) => {
    buf += chunk
    let at
    while ((at = buf.indexOf('\n')) !== -1) {
      const l = buf.slice(0, at)
      buf = buf.slice(at + 1)
      lines.push(l)
      for (const w of waiters.filter((w) => w.pattern.test(l))) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(l)
      }
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = lines.find((l) => pattern.test(l))
      if (seen) resolve(seen)
      else waiters.push({ pattern, resolve })
    })
  const ready = await Promise.race([
    line(/^READY /),
    exited.then((e) => Promise.reject(new Error(`fixture exited early: ${JSON.stringify(e)}`))),
  ])
  return { proc, url: ready.slice('READY '.length), stopFile, line, exited }
}

/** A GET on its own connection: status and body, or the error that ended it. */
function get(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = ''
        res.on('data', (c) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
        res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }))
      })
      .on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }))
  })
}

function connectRefused(url: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port) })
    s.once('connect', () => {
      s.destroy()
      resolve('connected')
    })
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
  })
}

describe('graceful shutdown (child process)', () => {
  it('SIGTERM: in-flight requests complete with 200, new connections are refused, WebSockets get 1001, the stop hook runs, exit 0', async () => {
    const child = await startChild()
    const ws = new WebSocket(`${child.url.replace('http', 'ws')}/ws`)
    await new Promise((resolve) => ws.once('message', resolve))
    const wsClosed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))

    const inFlight = Array.from({ length: 4 }, () => get(`${child.url}/slow?ms=800`))
    // fetch keeps its connection alive: the server must still close it once the answer is sent.
    const keptAlive = fetch(`${child.url}/slow?ms=800`).then(async (r) => ({ status: r.status, body: await r.text() }))
    await child.line(/^IN-FLIGHT 5$/)
    const signalled = Date.now()
    child.proc.kill('SIGTERM')
    await child.line(/shutting down/)

    expect(await connectRefused(child.url)).toBe('ECONNREFUSED')
    expect(await wsClosed).toBe(1001)
    const results = await Promise.all([...inFlight, keptAlive])
    expect(results).toEqual(Array.from({ length: 5 }, () => ({ status: 200, body: JSON.stringify({ done: true }) })))
    expect(await child.exited).toEqual({ code: 0, signal: null })
    // Well under the 5 s timeout: nothing waited for idle keep-alive connections.
    expect(Date.now() - signalled).toBeLessThan(2500)
    expect(readFileSync(child.stopFile, 'utf8')).toBe('stopped after 5 requests')
  })

  it('SIGINT: a request running past the timeout is cut off; the stop hook still runs and the exit code is 0', async () => {
    const child = await startChild({ SHUTDOWN_TIMEOUT_MS: '300' })
    const longOne = get(`${child.url}/slow?ms=10000`)
    await child.line(/^IN-FLIGHT 1$/)
    const started = Date.now()
    child.proc.kill('SIGINT')
    expect(await longOne).toEqual({ error: 'ECONNRESET' })
    expect(await child.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(3000)
    expect(existsSync(child.stopFile)).toBe(true)
  })
})
