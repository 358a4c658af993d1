// An app that cannot run when the dev server starts (a syntax error, a throw at import, a start
// hook that throws), under `vela serve` (startDevServer) and plain `vite`: the error is printed
// once, framed; the server listens anyway and answers 503 saying why; the fix starts the app.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createServer } from 'vite'
import { afterEach, expect, it } from 'vitest'
import { startDevServer } from './dev-server.ts'
import vela from '../index.ts'
import { listeningPort } from '../../test/support/listening.ts'
import { BIN, useTempDirs } from '../test/built-app.ts'

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

/** What `fn` printed on stderr (console.error), and its result. */
async function printed<T>(fn: () => Promise<T>): Promise<{ result: T; errors: string[] }> {
  const errors: string[] = []
  const original = console.error
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
  try {
    return { result: await fn(), errors }
  } finally {
    console.error = original
  }
}

/** Polls `url` until it answers `status` (the swap after an edit is asynchronous). */
async function answers(url: string, status: number): Promise<Response> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const res = await fetch(url)
    if (res.status === status || Date.now() > deadline) return res
    await new Promise((r) => setTimeout(r, 25))
  }
}

const serve = async (root: string) => {
  const server = await startDevServer({ root, port: 0, plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })] })
  closing.push(() => server.close({ timeoutMs: 1000 }))
  return server
}

const BROKEN = "export const hello = () => json({ message: 'hello' })"

it('vela serve: a syntax error at start-up prints one framed message, answers 503 with it, and starts the app once fixed', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/controllers/greetings_controller.ts', BROKEN, "export const hello = () => json({ message: 'hello' )")
  const { result: server, errors } = await printed(() => serve(root))
  expect(errors).toHaveLength(1)
  const [message] = errors
  expect(message).toContain('the app failed to load')
  expect(message).toMatch(/^src\/controllers\/greetings_controller\.ts:4:\d+: .+/m)
  expect(message).toMatch(/^ {2}> 4 \| export const hello = \(\) => json\(\{ message: 'hello' \)$/m)
  expect(message).toMatch(/^ {4} +\| +\^$/m)
  expect(message).not.toMatch(/\[object|\x1b\[/)
  expect(message!.split('\n').length).toBeLessThan(12)

  const res = await fetch(`${server.url}/hello`)
  expect(res.status).toBe(503)
  const body = (await res.json()) as { error: string; message: string }
  expect(body.error).toBe('the app failed to load')
  expect(body.message).toMatch(/^src\/controllers\/greetings_controller\.ts:4:/)
  const page = await fetch(`${server.url}/hello`, { headers: { accept: 'text/html' } })
  expect(page.status).toBe(503)
  expect(await page.text()).toMatch(
    /<h1>503 Service Unavailable<\/h1>.*failed to load.*<pre>src\/controllers\/greetings_controller\.ts:4:/s,
  )
  expect(events).toEqual([])

  edit(root, 'src/controllers/greetings_controller.ts', "json({ message: 'hello' )", "json({ message: 'fixed' })")
  const fixed = await answers(`${server.url}/hello`, 200)
  expect(await fixed.json()).toEqual({ message: 'fixed' })
  expect(events).toEqual(['start'])
})

it('vela serve (the command): a throw at import is framed at the throwing line, the server listens with 503, and the fix starts the app', async () => {
  const root = temp.fixture('basic')
  const THROW = "\nif (!process.env.VELA_FIXTURE_FIXED) throw new Error('env routes refuse to load')"
  edit(
    root,
    'src/routes/env.ts',
    "import { defineRoutes, json } from 'vela'",
    `import { defineRoutes, json } from 'vela'${THROW}`,
  )
  // A process of its own: the stack positions are mapped as in a developer's terminal (vitest's
  // workers replace the stack formatting that maps them).
  const child = spawn(process.execPath, [BIN, 'serve', '--root', root], {
    env: { ...process.env, PORT: '0', VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((r) => child.once('exit', r))
  closing.push(async () => void (child.kill('SIGTERM'), await exited))
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const deadline = Date.now() + 30_000
  while (!stdout.includes('listening on') && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50))
  const port = listeningPort(stdout)
  expect(stdout).toMatch(
    new RegExp(
      `listening on http://(\\[::\\]|0\\.0\\.0\\.0):${port} \\(all interfaces\\)( · dashboard http://\\S+)? \\(answering 503 until an edit fixes the error above\\)`,
    ),
  )
  expect(stderr).toMatch(/^src\/routes\/env\.ts:2:\d+: env routes refuse to load$/m)
  expect(stderr).toMatch(/^ {2}> 2 \| if \(!process\.env\.VELA_FIXTURE_FIXED\) throw/m)
  expect(stderr.match(/refuse to load/g)).toHaveLength(2) // the heading and its source line, once
  expect(stderr).not.toMatch(/node_modules|\[object|\x1b\[/)
  const res = await fetch(`http://127.0.0.1:${port}/env`)
  expect(res.status).toBe(503)
  expect(await res.json()).toMatchObject({
    error: 'the app failed to load',
    message: expect.stringMatching(/^src\/routes\/env\.ts:2:/),
  })
  edit(root, 'src/routes/env.ts', THROW, '')
  expect(await (await answers(`http://127.0.0.1:${port}/env`, 200)).json()).toEqual({ env: 'dev' })
}, 60_000)

it('vela serve: a start hook that throws at start-up answers 503 "failed to start"; the fix runs the start hook', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/app.ts', "events.push('start')", "throw new Error('no database today')")
  const { result: server, errors } = await printed(() => serve(root))
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(/start hook failed/)
  expect(errors[0]).toMatch(/^src\/app\.ts:\d+:\d+: no database today$/m)
  const res = await fetch(`${server.url}/hello`)
  expect(res.status).toBe(503)
  expect(await res.json()).toMatchObject({
    error: 'the app failed to start',
    message: expect.stringContaining('no database today'),
  })
  edit(root, 'src/app.ts', "throw new Error('no database today')", "events.push('start')")
  expect((await answers(`${server.url}/hello`, 200)).status).toBe(200)
  // The failed app's stop hook ran before the new start (its start may have opened something).
  expect(events).toEqual(['stop', 'start'])
})

it('plain vite: an app that fails to load does not stop Vite; requests get 503 until the fix', async () => {
  const root = temp.fixture('basic')
  edit(root, 'src/controllers/greetings_controller.ts', BROKEN, 'export const hello = () => json({ message: ')
  const { result: vite, errors } = await printed(async () => {
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })],
      server: { port: 0, host: '127.0.0.1' },
    })
    closing.push(() => server.close())
    await server.listen()
    return server
  })
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(/^src\/controllers\/greetings_controller\.ts:\d+:\d+: /m)
  const base = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`
  const res = await fetch(`${base}/hello`)
  expect(res.status).toBe(503)
  expect(await res.json()).toMatchObject({ error: 'the app failed to load' })
  edit(root, 'src/controllers/greetings_controller.ts', 'export const hello = () => json({ message: ', BROKEN)
  expect(await (await answers(`${base}/hello`, 200)).json()).toEqual({ message: 'hello' })
})
