// The development server against a temporary copy of the fixture app: discovery, hot swaps on
// edits (old app stopped, new one started, no restart), failed edits, WebSocket upgrades.
import { cpSync, mkdtempSync, rmSync, symlinkSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { DevServer } from './dev-server.ts'
import { startDevServer } from './dev-server.ts'
import vela from './index.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const events = ((globalThis as { velaFixtureEvents?: string[] }).velaFixtureEvents ??= [])
let dir = ''
let server: DevServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vela-dev-'))
  cpSync(fileURLToPath(new URL('./test/fixtures/basic', import.meta.url)), dir, { recursive: true })
  // The copy lives outside the repo: `vela` resolves through node_modules, as in a user's app.
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules/vela'), 'dir')
  server = await startDevServer({ root: dir, port: 0, plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })] })
})
afterAll(async () => {
  await server?.close({ timeoutMs: 1000 })
  rmSync(dir, { recursive: true, force: true })
})

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`)
  return { status: res.status, body: await res.text() }
}

/** Polls until `path` answers something other than `before` (the swap is asynchronous). */
async function changed(path: string, before: string, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await get(path)
    if (res.body !== before || Date.now() > deadline) return res
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Lets watcher events of earlier edits (debounced 20 ms) and their swaps finish. */
const quiet = async () => {
  await new Promise((r) => setTimeout(r, 150))
  await server.devApp.settled()
}

const edit = (file: string, from: string, to: string) => {
  const path = join(dir, file)
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to))
}

it('boots the app eagerly: the start hook ran before the first request', () => {
  expect(events).toEqual(['start'])
})

it('serves discovered routes with controller identities from the file names', async () => {
  expect(await get('/hello')).toEqual({ status: 200, body: '{"message":"hello"}' })
  expect(JSON.parse((await get('/identity')).body)).toEqual({ controller: 'greetings_controller', action: 'identity' })
  // `_helpers.ts` is not a controller; inline handlers report their route file.
  expect(JSON.parse((await get('/inline')).body)).toEqual({ controller: 'routes/main', action: 'anonymous', loud: 'X' })
  expect(JSON.parse((await get('/env')).body)).toEqual({ env: 'dev' })
})

it('swaps the app when a controller changes: new body, old app stopped, new one started, same process', async () => {
  const before = (await get('/hello')).body
  edit('src/controllers/greetings_controller.ts', "message: 'hello'", "message: 'hello again'")
  expect(await changed('/hello', before)).toEqual({ status: 200, body: '{"message":"hello again"}' })
  // An editor's write may reach the watcher as two events: then there are two swaps, each
  // stopping the app it replaces before starting the next.
  expect(events.slice(0, 3)).toEqual(['start', 'stop', 'start'])
  expect(events.join(' ')).toMatch(/^start( stop start)+$/)
})

it('picks up a new route file', async () => {
  expect((await get('/added')).status).toBe(404)
  writeFileSync(
    join(dir, 'src/routes/added.ts'),
    "import { json } from 'vela'\nexport default { prefix: '/added', security: false, routes: [['', () => json({ added: true })]] }\n",
  )
  expect(await changed('/added', (await get('/added')).body)).toEqual({ status: 200, body: '{"added":true}' })
})

it('keeps serving the previous version when an edit does not load, and recovers on the fix', async () => {
  await quiet()
  const stops = events.length
  const errors: unknown[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args)
  try {
    edit('src/controllers/greetings_controller.ts', "export const hello = () => json({ message: 'hello again' })", 'export const hello = () => json({ message: ')
    await new Promise((r) => setTimeout(r, 50))
    await server.devApp.reload('test')
    expect(errors.length).toBeGreaterThan(0)
    expect(await get('/hello')).toEqual({ status: 200, body: '{"message":"hello again"}' })
    expect(events.length).toBe(stops) // the serving app was not stopped
  } finally {
    console.error = original
  }
  edit('src/controllers/greetings_controller.ts', 'export const hello = () => json({ message: ', "export const hello = () => json({ message: 'fixed' })")
  expect(await changed('/hello', '{"message":"hello again"}')).toEqual({ status: 200, body: '{"message":"fixed"}' })
})

it('holds requests that arrive during a swap until the new app has started, and reads edits the watcher has not reported yet', async () => {
  await quiet()
  const g = globalThis as { velaFixtureStartDelayMs?: number }
  g.velaFixtureStartDelayMs = 300
  // A busy machine can deliver the watcher's event after an explicit reload: hold the events back
  // so that the swap below cannot rely on Vite having invalidated the edited module.
  const watcher = server.vite.watcher
  const emit = watcher.emit
  const held: Parameters<typeof emit>[] = []
  watcher.emit = ((...args: Parameters<typeof emit>) => (held.push(args), true)) as typeof emit
  try {
    edit('src/controllers/greetings_controller.ts', "message: 'fixed'", "message: 'waited'")
    await new Promise((r) => setTimeout(r, 100))
    const swapped = server.devApp.reload('test')
    const startedAt = Date.now()
    const res = await get('/hello')
    expect(res).toEqual({ status: 200, body: '{"message":"waited"}' })
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250)
    expect(events.at(-1)).toBe('start')
    await swapped
  } finally {
    watcher.emit = emit
    for (const args of held) watcher.emit(...args)
    g.velaFixtureStartDelayMs = 0
  }
  await quiet()
})

it('upgrades WebSockets through the dev server, to the current app', async () => {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.once('open', () => ws.send('ping'))
    ws.once('message', (data) => resolve(String(data)))
    ws.once('error', reject)
  })
  ws.close()
  expect(reply).toBe('echo:ping')
  // A path without a ws route is refused over HTTP.
  const refused = new WebSocket(`${server.url.replace('http', 'ws')}/hello`)
  const status = await new Promise<number>((resolve) => {
    refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    refused.once('error', () => resolve(-1))
  })
  expect(status).not.toBe(101)
})
