// The moves of the app in development between its states (dev-state.ts) that the other dev tests
// do not take, against a temporary copy of the fixture app under `vela serve`: failed to start,
// then an edit that does not load, then the fix; closing while failed; shutdown beginning while
// failed, then the fix.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startDevServer } from './dev-server.ts'
import vela from '../index.ts'
import { useTempDirs } from '../test/built-app.ts'

const temp = useTempDirs()
const events = ((globalThis as { velaFixtureEvents?: string[] }).velaFixtureEvents ??= [])
const closing: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
  events.length = 0
})

const edit = (root: string, file: string, from: string, to: string) => {
  const path = join(root, file)
  const text = readFileSync(path, 'utf8')
  if (!text.includes(from)) throw new Error(`${file} has no ${from}`)
  writeFileSync(path, text.replace(from, to))
}

/** What the dev server prints on stderr is expected here: kept from the test output. */
const errors: string[] = []
const quietly = async <T>(fn: () => Promise<T>): Promise<T> => {
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
  try {
    return await fn()
  } finally {
    console.error = original
  }
}

/** Polls `url` until it answers `status` with a body containing `text` (a swap is asynchronous). */
async function answers(url: string, status: number, text = ''): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const res = await fetch(url)
    const body = await res.text()
    if ((res.status === status && body.includes(text)) || Date.now() > deadline) return { status: res.status, body }
    await new Promise((r) => setTimeout(r, 25))
  }
}

const serve = async (root: string) => {
  const server = await startDevServer({ root, port: 0, plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })] })
  closing.push(() => quietly(() => server.close({ timeoutMs: 1000 })))
  return server
}

const START = "events.push('start')"
const START_THROWS = "throw new Error('no database today')"
const HELLO = "export const hello = () => json({ message: 'hello' })"
const HELLO_BROKEN = "export const hello = () => json({ message: 'hello' )"

it('failed to start, then an edit that does not load, then the fix: 503 to start, 503 to load, then 200; the app whose start threw is stopped once, before the new start', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/app.ts', START, START_THROWS)
  const server = await quietly(() => serve(root))
  expect(await answers(`${server.url}/hello`, 503, 'failed to start')).toMatchObject({ status: 503 })

  await quietly(async () => {
    edit(root, 'src/controllers/greetings_controller.ts', HELLO, HELLO_BROKEN)
    const broken = await answers(`${server.url}/hello`, 503, 'failed to load')
    expect(JSON.parse(broken.body)).toMatchObject({
      error: 'the app failed to load',
      message: expect.stringMatching(/^src\/controllers\/greetings_controller\.ts:\d+:/),
    })
    expect(server.devApp.failure).toMatch(/greetings_controller\.ts/)
    // Nothing loaded, so nothing was stopped or started.
    expect(events).toEqual([])

    // Fixing app.ts alone is not enough: the controller still does not load.
    edit(root, 'src/app.ts', START_THROWS, START)
    expect((await answers(`${server.url}/hello`, 503, 'failed to load')).status).toBe(503)
    edit(root, 'src/controllers/greetings_controller.ts', HELLO_BROKEN, HELLO)
    expect(await answers(`${server.url}/hello`, 200)).toEqual({ status: 200, body: '{"message":"hello"}' })
  })
  expect(server.devApp.failure).toBeUndefined()
  expect(events).toEqual(['stop', 'start'])
})

it('closing while the start hook has failed runs that app’s stop hook, once however often close is called', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/app.ts', START, START_THROWS)
  const server = await quietly(() => serve(root))
  expect(server.devApp.failure).toMatch(/no database today/)
  await Promise.all([server.devApp.close(), server.devApp.close()])
  await server.devApp.close()
  expect(events).toEqual(['stop'])
})

it('closing while the app failed to load runs no stop hook: nothing started', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/controllers/greetings_controller.ts', HELLO, HELLO_BROKEN)
  const server = await quietly(() => serve(root))
  expect(server.devApp.failure).toMatch(/greetings_controller\.ts/)
  await server.devApp.close()
  expect(events).toEqual([])
})

it('shutdown beginning while failed: the app the fix swaps in is draining too (its readiness endpoint answers 503)', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/app.ts', START, START_THROWS)
  const server = await quietly(() => serve(root))
  server.devApp.app.drain()
  expect(server.devApp.app.state).toBe('draining')
  edit(root, 'src/app.ts', START_THROWS, START)
  expect((await answers(`${server.url}/hello`, 200)).status).toBe(200)
  expect(server.devApp.current.state).toBe('draining')
  expect(server.devApp.app.state).toBe('draining')
  const ready = await fetch(`${server.url}/readyz`)
  expect(ready.status).toBe(503)
})
