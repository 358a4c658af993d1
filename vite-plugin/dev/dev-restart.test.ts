// A restart of Vite's server under `vela serve` (`server.restart()`, what an edit of
// `vite.config.ts` or `r` in the terminal does): the old app is stopped (its stop hook run, the
// port its start hook bound released) before the new one starts, and the listener answers with the
// new app; an app broken across a restart answers 503 and recovers on the fix. The same under
// Vite's own server.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer as createViteServer } from 'vite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { until } from '../../test/support/until.ts'
import type { DevServer } from './dev-server.ts'
import { startDevServer } from './dev-server.ts'
import vela, { devAppOf } from '../index.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const events = ((globalThis as { velaRestartEvents?: string[] }).velaRestartEvents ??= [])
let dir = ''
let extraPort = 0
let server: DevServer

const APP = `import { createServer } from 'node:net'
import { defineApp } from 'vela'

// The start hook binds an extra port (as a metrics exporter does); the stop hook releases it.
const events = ((globalThis as { velaRestartEvents?: string[] }).velaRestartEvents ??= [])
let extra: ReturnType<typeof createServer> | undefined

export default defineApp({
  bootstrapApplication: 'restarted',
  routes: {},
  async start() {
    const s = createServer((socket) => socket.end('extra'))
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject)
      s.listen(Number(process.env.VELA_RESTART_EXTRA_PORT), '127.0.0.1', () => resolve())
    })
    extra = s
    events.push('start')
  },
  async stop() {
    await new Promise((resolve) => extra?.close(resolve))
    events.push('stop')
  },
})
`

const ROUTES = `import { defineRoutes, json } from 'vela'

export default defineRoutes({ prefix: '', security: false, routes: [['GET /hello', () => json({ hello: 'world' })]] })
`

const CONFIG = `import vela from 'vela/vite'

export default { plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })] }
`

/** A port free now (bound and released), for the app's extra listener. */
async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as AddressInfo
  await new Promise((resolve) => s.close(resolve))
  return port
}

/** What the app's extra port answers. */
const extra = () =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(extraPort, '127.0.0.1')
    let text = ''
    socket.on('data', (d) => (text += String(d)))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`)
  return { status: res.status, body: await res.text() }
}

/** Polls until the dev server's current app answers `path` with `status`. */
const answers = (path: string, status: number) =>
  until(`${path} answers ${status}`, async () => (await get(path)).status === status, 20_000)

const write = (file: string, text: string) => {
  mkdirSync(join(dir, file, '..'), { recursive: true })
  writeFileSync(join(dir, file), text)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vela-restart-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules/vela'), 'dir')
  write('package.json', '{ "type": "module" }\n')
  write('vite.config.ts', CONFIG)
  write('src/app.ts', APP)
  write('src/routes/main.ts', ROUTES)
  extraPort = await freePort()
  process.env.VELA_RESTART_EXTRA_PORT = String(extraPort)
  server = await startDevServer({ root: dir, port: 0 })
})
afterAll(async () => {
  await server?.close({ timeoutMs: 1000 })
  delete process.env.VELA_RESTART_EXTRA_PORT
  rmSync(dir, { recursive: true, force: true })
})

it('serves the app, whose start hook bound the extra port', async () => {
  expect(await get('/hello')).toEqual({ status: 200, body: '{"hello":"world"}' })
  expect(await extra()).toBe('extra')
  expect(events).toEqual(['start'])
})

it('stops the old app before starting the new one on server.restart()', async () => {
  const before = devAppOf(server.vite)
  await server.vite.restart()
  expect(devAppOf(server.vite)).not.toBe(before)
  expect(server.devApp).toBe(devAppOf(server.vite))
  expect(server.devApp.failure).toBeUndefined()
  expect(events).toEqual(['start', 'stop', 'start'])
  expect(await get('/hello')).toEqual({ status: 200, body: '{"hello":"world"}' })
  expect(await extra()).toBe('extra')
})

it('does the same when the config file is edited', async () => {
  const before = devAppOf(server.vite)
  write('vite.config.ts', `${CONFIG}// edited\n`)
  await until('the server restarted', () => devAppOf(server.vite) !== before && events.length === 5, 20_000)
  await server.devApp.settled()
  expect(events).toEqual(['start', 'stop', 'start', 'stop', 'start'])
  expect(server.devApp.failure).toBeUndefined()
  expect(await get('/hello')).toEqual({ status: 200, body: '{"hello":"world"}' })
  expect(await extra()).toBe('extra')
})

it('answers 503 for an app broken across a restart, and 200 once it is fixed', async () => {
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    write('src/app.ts', `${APP}export const broken = (\n`)
    await server.devApp.settled()
    await server.vite.restart()
    await answers('/hello', 503)
    expect(server.devApp.failure).toBeDefined()
    // The old app was stopped all the same: its port is free for the fixed app.
    expect(events.slice(-1)).toEqual(['stop'])
    write('src/app.ts', APP)
    await answers('/hello', 200)
    expect(await get('/hello')).toEqual({ status: 200, body: '{"hello":"world"}' })
    expect(await extra()).toBe('extra')
    expect(events.slice(-2)).toEqual(['stop', 'start'])
  } finally {
    console.error = original
  }
  expect(errors.length).toBeGreaterThan(0)
})

it('closes the app it serves last: the stop hook runs and the port is released', async () => {
  await server.close({ timeoutMs: 1000 })
  expect(events.slice(-1)).toEqual(['stop'])
  await expect(extra()).rejects.toThrow(/ECONNREFUSED/)
})

it("does the same under Vite's own server, with the plugin given inline (one plugin object for both servers)", async () => {
  const vite = await createViteServer({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })],
    server: { port: 0, host: '127.0.0.1' },
  })
  try {
    await vite.listen()
    const base = () => `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`
    expect((await fetch(`${base()}/hello`)).status).toBe(200)
    const before = events.length
    await vite.restart()
    expect(events.slice(before)).toEqual(['stop', 'start'])
    expect(devAppOf(vite)!.failure).toBeUndefined()
    expect(await (await fetch(`${base()}/hello`)).text()).toBe('{"hello":"world"}')
    expect(await extra()).toBe('extra')
  } finally {
    await vite.close()
  }
  expect(events.slice(-1)).toEqual(['stop'])
})
