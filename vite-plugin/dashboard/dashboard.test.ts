// The development dashboard on the dev server, against a copy of the fixture app: /__vela needs
// a loopback peer and the start's token (the link sets a cookie), answers before the app's routes
// without being recorded itself, streams new requests as Server-Sent Events; in `prod` and `test`
// the path is the app's (a 404) and nothing is recorded.
import { spawn } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { DevServer } from '../dev/dev-server.ts'
import { startDevServer } from '../dev/dev-server.ts'
import vela from '../index.ts'
import { freePort } from '../../bench/load.ts'
import { until } from '../../test/support/until.ts'
import type { DevApp } from '../dev/dev-app.ts'
import { BIN, useTempDirs } from '../test/built-app.ts'
import { isLoopback } from './access.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
let dir = ''

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vela-dashboard-'))
  cpSync(fileURLToPath(new URL('../test/fixtures/basic', import.meta.url)), dir, { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(repo, join(dir, 'node_modules/vela'), 'dir')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A dev server on all interfaces, in `environment` (VELA_ENV for the time it starts). */
async function start(environment?: string, onRestart?: (devApp: DevApp) => void): Promise<DevServer> {
  const before = process.env.VELA_ENV
  if (environment) process.env.VELA_ENV = environment
  try {
    return await startDevServer({
      root: dir,
      port: 0,
      host: '0.0.0.0',
      plugins: [vela({ dev: { log: () => {} } })],
      onRestart,
    })
  } finally {
    if (before === undefined) delete process.env.VELA_ENV
    else process.env.VELA_ENV = before
  }
}

const nonLoopback = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address

describe('in dev', () => {
  let server: DevServer
  let token = ''
  const restarted: DevApp[] = []
  beforeAll(async () => {
    server = await start(undefined, (devApp) => restarted.push(devApp))
    token = server.devApp.dashboard!.token
  })
  afterAll(() => server?.close({ timeoutMs: 1000 }))

  it('refuses a request without the token, or with another one', async () => {
    for (const path of ['/__vela', '/__vela/app', '/__vela/events', `/__vela?token=${'x'.repeat(token.length)}`]) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' })
      expect(res.status, path).toBe(403)
      expect(res.headers.get('set-cookie')).toBeNull()
    }
    const wrongCookie = await fetch(`${server.url}/__vela`, { headers: { cookie: 'vela_dashboard=nope' } })
    expect(wrongCookie.status).toBe(403)
  })

  it.skipIf(!nonLoopback)('refuses a client that is not on loopback, even with the token', async () => {
    const port = new URL(server.url).port
    const res = await fetch(`http://${nonLoopback}:${port}/__vela?token=${token}`, { redirect: 'manual' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('loopback')
    // The app itself still answers there.
    expect((await fetch(`http://${nonLoopback}:${port}/hello`)).status).toBe(200)
  })

  it('the link sets the cookie; the list shows the app requests, not its own', async () => {
    const opened = await fetch(`${server.url}/__vela?token=${token}`, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe('/__vela')
    const cookie = opened.headers.get('set-cookie')!
    expect(cookie).toMatch(/^vela_dashboard=[\w-]+; Path=\/__vela; HttpOnly; SameSite=Strict$/)
    expect((await fetch(`${server.url}/hello`)).status).toBe(200)
    const page = await fetch(`${server.url}/__vela`, { headers: { cookie: cookie.split(';')[0]! } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).toContain('<td class="route">/hello</td>')
    expect(html).not.toContain('<a href="/__vela/requests/r1">/__vela')
    expect(server.devApp.dashboard!.store.list().every((r) => !r.path.startsWith('/__vela'))).toBe(true)
  })

  it('streams each new request as a Server-Sent Event', async () => {
    const controller = new AbortController()
    const res = await fetch(`${server.url}/__vela/events`, {
      headers: { cookie: `vela_dashboard=${token}` },
      signal: controller.signal,
    })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    expect((await reader.read()).value).toContain(': connected')
    await fetch(`${server.url}/identity`)
    let text = ''
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? ''
    controller.abort()
    expect(text).toMatch(/^event: request\ndata: /)
    expect(JSON.parse(text.split('data: ')[1]!)).toMatchObject({
      method: 'GET',
      path: '/identity',
      route: '/identity',
      status: 200,
    })
  })

  it('the app page shows the routes by group and the WebSocket connections open', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    try {
      const html = await (
        await fetch(`${server.url}/__vela/app`, { headers: { cookie: `vela_dashboard=${token}` } })
      ).text()
      expect(html).toContain('<span class="open">1</span> connection(s) open')
      expect(html).toContain('<code>/ws</code>')
      expect(html).toContain('<td>/hello</td>')
      // The socket subscribed to `news` as it opened.
      expect(html).toMatch(/<td class="topic"><code>news<\/code><\/td><td class="subscribers">1<\/td>/)
      // An app without a repository has nothing to migrate.
      expect(html).toContain('No repository')
    } finally {
      ws.close()
    }
  })

  it('the charts are drawn on the app page and served alone for the live update', async () => {
    const cookie = `vela_dashboard=${token}`
    expect((await fetch(`${server.url}/hello`)).status).toBe(200)
    const app = await (await fetch(`${server.url}/__vela/app`, { headers: { cookie } })).text()
    for (const id of ['rate', 'latency', 'errors']) expect(app).toContain(`data-chart="${id}"`)
    const charts = await fetch(`${server.url}/__vela/charts`, { headers: { cookie } })
    expect(charts.status).toBe(200)
    const fragment = await charts.text()
    expect(fragment).toMatch(/^<section class="charts" id="charts">/)
    expect(fragment.match(/<polyline /g)).toHaveLength(5) // rate, p50, p95, p99, errors
    expect(Number(/data-chart="rate" data-requests="(\d+)"/.exec(fragment)![1])).toBeGreaterThan(0)
  })

  // Last in this block: it replaces the dev app the tests above used.
  it("after a restart of Vite's server: a new token, the old one refused, and the connections still counted", async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    try {
      await server.vite.restart()
      await until('the restarted app is registered', () => restarted.length === 1)
      const next = restarted[0]!.dashboard!
      expect(next.token).not.toBe(token)
      expect(server.devApp.dashboard).toBe(next)
      expect((await fetch(`${server.url}/__vela?token=${token}`, { redirect: 'manual' })).status).toBe(403)
      expect((await fetch(`${server.url}/__vela`, { headers: { cookie: `vela_dashboard=${token}` } })).status).toBe(403)
      const opened = await fetch(next.link(server.url), { redirect: 'manual' })
      expect(opened.status).toBe(303)
      const html = await (
        await fetch(`${server.url}/__vela/app`, {
          headers: { cookie: opened.headers.get('set-cookie')!.split(';')[0]! },
        })
      ).text()
      expect(html).toContain('<span class="open">1</span> connection(s) open')
      expect(html).toMatch(/<td class="topic"><code>news<\/code><\/td><td class="subscribers">1<\/td>/)
    } finally {
      ws.close()
    }
  }, 60_000)
})

describe('migrations on the app page', () => {
  const temp = useTempDirs()
  let server: DevServer

  beforeAll(async () => {
    // The notes app, migrating only its first migration at start: a second one stays pending.
    const root = temp.fixture('notes')
    const app = join(root, 'src/app.ts')
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace(
        'await migrate(repo, migrations)',
        'await migrate(repo, migrations.slice(0, 1))',
      ),
    )
    writeFileSync(
      join(root, 'src/migrations/m20991231000000_create_tags.ts'),
      "import { createTable, dropTable } from 'vela/dbl'\nexport const up = () => [createTable('tags', [{ name: 'id', type: 'id', primaryKey: true }])]\nexport const down = () => [dropTable('tags')]\n",
    )
    server = await startDevServer({ root, port: 0, plugins: [vela({ dev: { log: () => {} } })] })
  }, 90_000)
  afterAll(() => server?.close({ timeoutMs: 1000 }))

  it('lists the applied and the pending ones, from the database the app runs on', async () => {
    const token = server.devApp.dashboard!.token
    const html = await (
      await fetch(`${server.url}/__vela/app`, { headers: { cookie: `vela_dashboard=${token}` } })
    ).text()
    expect(html).toContain('<span class="applied">1</span> applied · <span class="pending">1</span> pending')
    expect(html).toMatch(
      /<tr class="applied"><td>20261121110937<\/td><td class="name">create_notes<\/td><td class="state">applied<\/td><td>\d{4}-\d\d-\d\dT/,
    )
    expect(html).toContain(
      '<tr class="pending"><td>20991231000000</td><td class="name">create_tags</td><td class="state">pending</td><td></td></tr>',
    )
  })
})

it("vela serve prints a new start line after a restart of Vite's server: its link works, the first one is refused", async () => {
  const temp = useTempDirs()
  const root = temp.fixture('basic')
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'serve', '--root', root], {
    env: { ...process.env, PORT: String(port), VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((r) => child.once('exit', r))
  let stdout = ''
  child.stdout.on('data', (d) => (stdout += d))
  const links = () =>
    [...stdout.matchAll(/listening on \S+ \(all interfaces\) · dashboard (http:\/\/\S+)/g)].map((m) =>
      m[1]!.replace(/\/\/[^/]+/, `//127.0.0.1:${port}`),
    )
  try {
    await until('vela serve listens', () => links().length === 1, 60_000)
    const [first] = links()
    expect((await fetch(first!, { redirect: 'manual' })).status).toBe(303)
    // An edit of the config file restarts Vite's server, and the app with it.
    appendFileSync(join(root, 'vite.config.ts'), '// edited\n')
    await until('a second start line', () => links().length === 2, 60_000)
    const second = links()[1]!
    expect(second).not.toBe(first)
    await until(
      'the restarted app answers',
      async () => (await fetch(second, { redirect: 'manual' })).status === 303,
      20_000,
    )
    expect((await fetch(first!, { redirect: 'manual' })).status).toBe(403)
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}, 150_000)

describe.each(['prod', 'test'])('in %s', (environment) => {
  let server: DevServer
  beforeAll(async () => {
    server = await start(environment)
  })
  afterAll(() => server?.close({ timeoutMs: 1000 }))

  it('/__vela is not there (404) and nothing is recorded', async () => {
    expect(server.devApp.current.config.environment).toBe(environment)
    const token = server.devApp.dashboard!.token
    expect((await fetch(`${server.url}/__vela?token=${token}`, { redirect: 'manual' })).status).toBe(404)
    expect((await fetch(`${server.url}/__vela`, { headers: { cookie: `vela_dashboard=${token}` } })).status).toBe(404)
    expect((await fetch(`${server.url}/hello`)).status).toBe(200)
    expect(server.devApp.dashboard!.store.size).toBe(0)
  })
})

it('loopback is 127.0.0.0/8, ::1 and their IPv4-mapped forms; nothing else', () => {
  for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true)
  for (const a of [undefined, '192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', 'fd00::2', '::', '0.0.0.0', '128.0.0.1'])
    expect(isLoopback(a), a).toBe(false)
})
