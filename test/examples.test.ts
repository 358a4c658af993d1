/**
 * The example apps (examples/*), each as a user runs it from the packed package: its type check
 * (`npm run typecheck`: the route types written, then tsc), its own tests (vitest), `vite build`,
 * then the built server from a copy of dist/ alone, on a port of its choosing, answering a few
 * real requests (the chat: two WebSocket clients talking; the jobs example: its job run by the
 * built server). The packed package and the starter's installed node_modules are shared with the
 * new-app suites (support/new-app-cache.ts).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { EXAMPLES, useExample } from './support/example-apps.ts'
import type { Started } from './support/new-app.ts'
import { copyDist, npx, sh, startAndProbe } from './support/new-app.ts'
import type { NewApp } from './support/new-app-cache.ts'
import { newApp } from './support/new-app-cache.ts'
import { until } from './support/until.ts'
import { WsClient } from './support/ws-client.ts'

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const DEPRECATION = /VELA_DEP_|DeprecationWarning/

let made: NewApp
let parent: string
const cleanup: Array<() => unknown> = []
beforeAll(async () => {
  made = await newApp('vela-examples-')
  cleanup.push(() => made.remove())
  parent = mkdtempSync(join(tmpdir(), 'vela-examples-apps-'))
  cleanup.push(() => rmSync(parent, { recursive: true, force: true }))
}, 900_000)
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

test('every folder under examples/ is checked here', () => {
  expect(readdirSync(EXAMPLES).sort()).toEqual(['chat', 'jobs', 'json-api', 'server-rendered'])
})

/**
 * The steps every example goes through, then `serve` against its built server (`env` added to
 * the server's environment). The server's output must name no deprecated form.
 */
function example(name: string, env: NodeJS.ProcessEnv, serve: (server: Started) => Promise<void>) {
  describe(`examples/${name}`, { timeout: 600_000 }, () => {
    let app: string
    beforeAll(() => {
      app = useExample(name, parent, made.app, made.packed.tarball)
    })

    test('npm run typecheck writes the route types and type-checks the app', async () => {
      await sh(app, NPM, ['run', 'typecheck'])
    })

    test('its own tests pass, with no deprecated form used', async () => {
      const out = await npx(app, 'vitest', ['run'])
      expect(out).toMatch(/Tests\s+\d+ passed/)
      expect(out).not.toMatch(/\bfailed\b/)
      expect(out).not.toMatch(DEPRECATION)
    })

    test('vite build, then the built server answers', async () => {
      expect(await npx(app, 'vite', ['build'])).toMatch(/dist\/server\/index\.mjs/)
      const dist = copyDist(app)
      cleanup.push(() => rmSync(dist, { recursive: true, force: true }))
      const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], env, '/heartbeat')
      try {
        await serve(server)
      } finally {
        await server.stop()
      }
      expect(server.output()).toMatch(/\(prod\) listening on/)
      expect(server.output()).not.toMatch(DEPRECATION)
    })
  })
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

example('json-api', {}, async ({ url }) => {
  const credentials = { email: 'ada@example.com', password: 'correct horse' }
  expect((await post(`${url}/api/users`, credentials)).status).toBe(201)
  const login = await post(`${url}/api/login`, credentials)
  expect(login.status).toBe(201)
  const authorization = `Bearer ${((await login.json()) as { token: string }).token}`

  const made = await post(`${url}/api/tasks`, { title: 'Ship it', due_on: '2030-01-31' }, { authorization })
  expect(made.status).toBe(201)
  const listed = await fetch(`${url}/api/tasks`, { headers: { authorization } })
  expect(await listed.json()).toEqual({ tasks: [await made.json()] })
  expect((await fetch(`${url}/api/tasks`)).status).toBe(401)

  // The login limit: five a minute from one address (one used above), then 429.
  const attempts: number[] = []
  for (let i = 0; i < 5; i++) attempts.push((await post(`${url}/api/login`, { ...credentials, password: 'x' })).status)
  expect(attempts).toEqual([401, 401, 401, 401, 429])

  const doc = (await (await fetch(`${url}/docs/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown }>>
    components: { securitySchemes: Record<string, unknown> }
  }
  expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' })
  expect(doc.paths['/api/tasks']!.get!.security).toEqual([{ bearerToken: [] }])
  expect((await fetch(`${url}/docs/swagger.html`)).status).toBe(200)
})

example('jobs', {}, async ({ url }) => {
  const made = await post(`${url}/api/subscribers`, { email: 'ada@example.com' })
  expect(made.status).toBe(201)
  const { id } = (await made.json()) as { id: number }
  // The built server runs the jobs itself (no VELA_JOBS): the welcome mail's job records its sending.
  await until(
    'the welcome job ran',
    async () =>
      ((await (await fetch(`${url}/api/subscribers/${id}`)).json()) as { welcomed_at: string | null }).welcomed_at !==
      null,
    60_000,
  )
  expect((await post(`${url}/api/subscribers`, { email: 'ada@example.com' })).status).toBe(422)
})

/** A cookie jar of one: the session cookie the server set last. */
function jar() {
  let cookie = ''
  return {
    header: () => ({ cookie }),
    keep(res: Response) {
      const set = res.headers.getSetCookie().find((c) => c.startsWith('bookmarks_session='))
      if (set) cookie = set.split(';')[0]!
      return set
    },
  }
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

example('server-rendered', { VELA_SESSION_SECRET: 'a-test-secret-of-at-least-32-characters' }, async ({ url }) => {
  const cookies = jar()
  const signup = await fetch(`${url}/signup`)
  expect(signup.status).toBe(200)
  const set = cookies.keep(signup)
  // Production cookies: sealed, never readable by scripts, sent over https only.
  expect(set).toMatch(/; HttpOnly/i)
  expect(set).toMatch(/; Secure/i)
  expect(set).toMatch(/; SameSite=Lax/i)
  const token = /name="_csrf_token" value="([^"]+)"/.exec(await signup.text())![1]!

  const fields = { email: 'ada@example.com', password: 'correct horse', password_confirmation: 'correct horse' }
  const forged = await fetch(`${url}/signup`, {
    method: 'POST',
    headers: { ...cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
    redirect: 'manual',
  })
  expect(forged.status).toBe(403)

  const created = await fetch(`${url}/signup`, {
    method: 'POST',
    headers: { ...cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ ...fields, _csrf_token: token }),
    redirect: 'manual',
  })
  expect(created.status).toBe(303)
  expect(created.headers.get('location')).toBe('/bookmarks')
  cookies.keep(created)

  const page = await fetch(`${url}/bookmarks`, { headers: cookies.header(), redirect: 'manual' })
  expect(page.status).toBe(200)
  cookies.keep(page)
  expect(await page.text()).toContain('Welcome, ada@example.com!')
  expect((await fetch(`${url}/bookmarks`, { redirect: 'manual' })).headers.get('location')).toBe('/login')

  const css = await fetch(`${url}/static/app.css`)
  expect(css.status).toBe(200)
  expect(css.headers.get('content-type')).toMatch(/^text\/css/)
})

example('chat', {}, async ({ url }) => {
  const ws = url.replace(/^http/, 'ws')
  const empty = JSON.stringify({ type: 'history', messages: [] })
  const ada = await WsClient.open(`${ws}/ws/rooms/lobby?name=Ada`, empty)
  const bob = await WsClient.open(`${ws}/ws/rooms/lobby?name=Bob`, empty)
  try {
    expect(JSON.parse((await ada.next()).text)).toEqual({ type: 'joined', name: 'Bob' })
    bob.send({ body: 'Hello from Bob' })
    const heard = JSON.parse((await ada.next()).text)
    expect(heard).toMatchObject({ type: 'message', message: { room: 'lobby', author: 'Bob', body: 'Hello from Bob' } })
    expect(JSON.parse((await bob.next()).text)).toEqual(heard)

    const announced = await post(`${url}/api/rooms/lobby/messages`, { author: 'bot', body: 'Deployed' })
    expect(announced.status).toBe(201)
    for (const client of [ada, bob])
      expect(JSON.parse((await client.next()).text)).toMatchObject({ type: 'message', message: { body: 'Deployed' } })

    const history = await (await fetch(`${url}/api/rooms/lobby/messages`)).json()
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(['Hello from Bob', 'Deployed'])
    const page = await fetch(`${url}/`)
    expect(await page.text()).toContain('<script type="module" src="/static/chat.js"></script>')
  } finally {
    await Promise.all([ada.close(), bob.close()])
  }
})

test("each example asks for this release of vela as a user's app would: from the registry", () => {
  const { version } = JSON.parse(readFileSync(join(EXAMPLES, '../package.json'), 'utf8'))
  for (const name of readdirSync(EXAMPLES)) {
    const pkg = JSON.parse(readFileSync(join(EXAMPLES, name, 'package.json'), 'utf8'))
    expect(pkg.dependencies.vela, name).toBe(`^${version}`)
  }
})
