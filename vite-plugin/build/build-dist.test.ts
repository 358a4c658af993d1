// A self-contained build: `vite build` puts under dist/ what the server reads at run time (views,
// priv/ with the OpenAPI files, beside the bundle), so a copy of dist/ alone, started in another
// folder, serves every page; it runs as prod and needs its session secret only to start.
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { SMTPServer } from 'smtp-server'
import { build } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'
import { inject } from '../../server/testing/index.ts'
import { createAppIn } from '../app-loader.ts'
import { withAppRunner } from '../cli/commands/load.ts'
import vela from '../index.ts'
import { BIN, runBuiltToExit, startBuilt, useTempDirs } from '../test/built-app.ts'

const run = promisify(execFile)
const temp = useTempDirs()
const SECRET = 'a-run-time-secret-that-is-long-enough-0123'
// The build and the CLI get no secret: only the built server's start needs one.
const { VELA_SESSION_SECRET: _unused, ...noSecret } = process.env
const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()

describe('vite build of an app with views, sessions, priv/schemas and a /docs static route', () => {
  const root = temp.fixture('site')
  const dist = join(root, 'dist')
  beforeAll(async () => {
    delete process.env.VELA_SESSION_SECRET
    try {
      await build({ root, configFile: false, plugins: [vela()], logLevel: 'silent' })
    } finally {
      if (_unused !== undefined) process.env.VELA_SESSION_SECRET = _unused
    }
  }, 60_000)

  it('writes the OpenAPI files in priv/assets, then mirrors the views and priv/ under dist/', () => {
    const assets = ['openapi.json', 'swagger-initializer.js', 'swagger-ui-bundle.js', 'swagger-ui.css', 'swagger.html']
    expect(files(join(root, 'priv/assets'))).toEqual(assets)
    expect(files(dist)).toEqual(
      [
        'priv',
        'priv/assets',
        ...assets.map((f) => `priv/assets/${f}`),
        'priv/schemas',
        'priv/schemas/page.json',
        'priv/schemas/visit.json',
        'server',
        'server/index.mjs',
        'src',
        'src/mail',
        'src/mail/welcome.html.liquid',
        'src/mail/welcome.text.liquid',
        'src/views',
        'src/views/layout.liquid',
        'src/views/pages.liquid',
      ].sort(),
    )
  })

  it('a copy of dist/ alone, started in an empty folder, serves the HTML view (with its session) and the explorer, as prod', async () => {
    const server = await startBuilt(dist, { VELA_SESSION_SECRET: SECRET })
    try {
      expect(server.output()).toMatch(
        /vela: site \(prod\) listening on http:\/\/(\[::\]|0\.0\.0\.0):\d+ \(all interfaces\)/,
      )
      const first = await fetch(`${server.url}/`)
      expect(first.status).toBe(200)
      expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await first.text()).toBe(
        '<!doctype html><html><head><title>Welcome</title></head><body><h1>Welcome</h1><p>visit 1</p></body></html>\n',
      )
      const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!
      expect(await (await fetch(`${server.url}/`, { headers: { cookie } })).text()).toContain('<p>visit 2</p>')

      const explorer = await fetch(`${server.url}/docs/swagger.html`)
      expect(explorer.status).toBe(200)
      expect(await explorer.text()).toContain('data-url="./openapi.json"')
      const doc = await fetch(`${server.url}/docs/openapi.json`)
      expect(doc.status).toBe(200)
      expect(Object.keys(((await doc.json()) as { paths: object }).paths)).toEqual(['/', '/welcome'])
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)

  it('mails from the templates dist/ holds, through the SMTP server the environment names (prod sends)', async () => {
    const received: string[] = []
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, done) {
        let data = ''
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')))
        stream.on('end', () => (received.push(data), done()))
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    const port = (smtp.server.address() as { port: number }).port
    const server = await startBuilt(dist, { VELA_SESSION_SECRET: SECRET, SMTP_URL: `smtp://127.0.0.1:${port}` })
    try {
      const res = await fetch(`${server.url}/welcome?to=ann@example.com&name=Ann`, { method: 'POST' })
      expect([res.status, await res.json()]).toEqual([200, { delivery: 'transport' }])
      expect(received).toHaveLength(1)
      expect(received[0]).toContain('Subject: Welcome')
      expect(received[0]).toContain('<p>Welcome, Ann!</p>')
    } finally {
      expect(await server.stop()).toBe(0)
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  }, 60_000)

  it('without a session secret the built server refuses to start: one line naming the app and its environment, exit 1', async () => {
    const { code, output } = await runBuiltToExit(dist)
    expect(code).toBe(1)
    expect(output.trim()).toMatch(
      /^vela: site \(prod\) could not start: session: no secret in environment "prod"; set VELA_SESSION_SECRET or the session plugin option `secret` \(generate one with: .*\)$/,
    )
  }, 60_000)

  it('VELA_ENV at run time names another environment', async () => {
    const server = await startBuilt(dist, { VELA_ENV: 'staging', VELA_SESSION_SECRET: SECRET })
    expect(server.output()).toContain('vela: site (staging) listening on')
    expect(await server.stop()).toBe(0)
  }, 60_000)

  // Last in this group: it removes dist/priv/schemas.
  it('the schemas routes name in validate are bundled into the server: it validates without dist/priv/schemas', async () => {
    rmSync(join(dist, 'priv/schemas'), { recursive: true })
    const server = await startBuilt(dist, { VELA_SESSION_SECRET: SECRET })
    try {
      const refused = await fetch(`${server.url}/?from=zero`)
      expect(refused.status).toBe(422)
      expect(await refused.json()).toEqual({ errors: { from: ['must be integer'] } })
      expect((await fetch(`${server.url}/?from=2`)).status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)
})

it('vela release --profile prod builds an app using sessionPlugin() with no secret set; vela routes and middleware inspect it in prod without one', async () => {
  const root = temp.fixture('site')
  const rel = relative(process.cwd(), root)
  const { stdout } = await run(process.execPath, [BIN, 'release', '--root', root, '--profile', 'prod'], {
    env: noSecret,
  })
  expect(stdout.trim().split('\n').at(-1)).toBe(`Built ${rel}/dist/server/index.mjs`)
  expect(files(join(root, 'dist/src/views'))).toEqual(['layout.liquid', 'pages.liquid'])

  // A template removed from the app is removed from dist/ by the next build.
  writeFileSync(join(root, 'dist/src/views/stale.liquid'), 'left over')
  await run(process.execPath, [BIN, 'release', '--root', root, '--profile', 'prod'], { env: noSecret })
  expect(files(join(root, 'dist/src/views'))).toEqual(['layout.liquid', 'pages.liquid'])
  expect(readFileSync(join(root, 'dist/server/index.mjs'), 'utf8')).toContain('process.env.VELA_ENV ||= "prod"')

  const prod = { ...noSecret, VELA_ENV: 'prod' }
  const routes = await run(process.execPath, [BIN, 'routes', '--root', root], { env: prod })
  expect(routes.stdout).toContain('/docs/[...]')
  const middleware = await run(process.execPath, [BIN, 'middleware', '--root', root], { env: prod })
  expect(middleware.stdout).toContain('session')
}, 120_000)

it("before a build, the app root is the Vite root: virtual:vela/app's create() finds the views and priv/ of the app, not of the working directory", async () => {
  const root = temp.fixture('site')
  mkdirSync(join(root, 'priv/assets'))
  writeFileSync(join(root, 'priv/assets/hello.txt'), 'from the app folder')
  expect(process.cwd()).not.toBe(root)
  await withAppRunner(root, { configLoader: 'runner' }, async (load) => {
    const app = await createAppIn(load, { ...process.env, VELA_SESSION_SECRET: SECRET })
    expect(await (await inject(app, '/')).text()).toContain('<h1>Welcome</h1><p>visit 1</p>')
    expect(await (await inject(app, '/docs/hello.txt')).text()).toBe('from the app folder')
  })
}, 60_000)
