/**
 * End to end, as a new user: the packed package, `vela new`, the tarball installed into the new app
 * (no link to this repo), and the app's own toolchain unflagged (test/support/new-app.ts).
 * PostgreSQL runs the built server a second time when it is reachable (required under CI).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Packed } from './support/new-app.ts'
import { npx, sh, startAndProbe, until } from './support/new-app.ts'
import type { NewApp } from './support/new-app-cache.ts'
import { newApp } from './support/new-app-cache.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'

const hasPostgres = await serviceAvailable('postgres')
const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

let made: NewApp
let packed: Packed
let app: string

describe('a new app from the packed package', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    made = await newApp('vela-newapp-')
    cleanup.push(() => made.remove())
    ;({ packed, app } = made)
  }, 900_000)

  test('the tarball holds the compiled package only', () => {
    // Compiled JavaScript and declarations, the starter `vela new` copies and the files `vela gen
    // auth` writes, the CLI's entry and the client types, the dashboard's views and stylesheet: no
    // sources, no tests of Vela's own.
    const template = (p: string) =>
      p.startsWith('dist/vite-plugin/template/') || p.startsWith('dist/vite-plugin/cli/commands/gen-auth/template/')
    const shipped = (p: string) =>
      /^dist\/.*\.(js|d\.ts)$/.test(p) ||
      template(p) ||
      p.startsWith('dist/vite-plugin/dashboard/assets/') ||
      ['package.json', 'README.md', 'vite-plugin/bin.mjs', 'vite-plugin/client.d.ts'].includes(p)
    expect(packed.paths.filter((p) => !shipped(p))).toEqual([])
    expect(packed.paths.filter((p) => !template(p) && /\.test\.|fixtures\//.test(p))).toEqual([])
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/vela/package.json'), 'utf8'))
    expect(pkg.dependencies.tsx).toBeUndefined()
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).dependencies.vela).toMatch(/vela-0\.1\.0\.tgz$/)
  })

  test('tsc --noEmit type-checks the app', async () => {
    await npx(app, 'tsc', ['--noEmit'])
  })

  test('with no .vela/ yet (a fresh checkout), the typed client, schema names and a test.env block compile', async () => {
    expect(existsSync(join(app, '.vela'))).toBe(false)
    const check = join(app, 'src/fresh-check.ts')
    const config = join(app, 'vite.config.ts')
    const generated = readFileSync(config, 'utf8')
    writeFileSync(check, FRESH_CHECK)
    // What the testing guide adds: vitest's own block, beside the plugin.
    writeFileSync(
      config,
      generated.replace('plugins: [vela()] }', "plugins: [vela()], test: { env: { DATABASE_URL: '' } } }"),
    )
    try {
      expect(readFileSync(config, 'utf8')).toContain('test: { env:')
      await npx(app, 'tsc', ['--noEmit'])
    } finally {
      rmSync(check)
      writeFileSync(config, generated)
    }
  })

  test('vitest run passes the generated test', async () => {
    const out = await npx(app, 'vitest', ['run'])
    expect(out).toMatch(/Tests\s+\d+ passed/)
    // Its tests call every route of the starter: none uses a form this release deprecates.
    expect(out).not.toMatch(/VELA_DEP_|DeprecationWarning/)
  })

  test('vitest wrote .vela/routes.d.ts: a typed client of the API compiles, a wrong path does not', async () => {
    expect(readFileSync(join(app, '.vela/routes.d.ts'), 'utf8')).toContain('"GET /api/notes": {')
    const check = join(app, 'src/client-check.ts')
    writeFileSync(check, CLIENT_CHECK)
    try {
      await npx(app, 'tsc', ['--noEmit'])
    } finally {
      rmSync(check)
    }
  })

  test('npm run typecheck writes the route types first, then checks the calls against them', async () => {
    rmSync(join(app, '.vela'), { recursive: true, force: true })
    const check = join(app, 'src/client-check.ts')
    writeFileSync(check, CLIENT_CHECK)
    try {
      // CLIENT_CHECK's `@ts-expect-error` for a wrong path fails the check if the client is untyped.
      await sh(app, process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'typecheck'])
      expect(readFileSync(join(app, '.vela/routes.d.ts'), 'utf8')).toContain('"GET /api/notes": {')
    } finally {
      rmSync(check)
    }
  })

  test('the installed vela CLI: migrate keeps its data in .data/, --status sees it, routes lists the app', async () => {
    expect(await npx(app, 'vela', ['migrate'])).toMatch(/^migrated \d{14} create_notes$/m)
    expect(await npx(app, 'vela', ['migrate', '--status'])).toMatch(/^up\s+\d{14} create_notes$/m)
    expect(await npx(app, 'vela', ['routes'])).toContain('/api/notes')
    expect(await npx(app, 'vela', ['openapi', '--help'])).toMatch(/^usage: vela openapi/)
  })

  test('vela/telemetry works with nothing installed but vela', async () => {
    writeFileSync(join(app, 'telemetry-check.mjs'), TELEMETRY_CHECK)
    expect((await sh(app, process.execPath, ['telemetry-check.mjs'])).trim()).toBe('200 true')
  })

  // `vite build` of the app as generated ran once for both new-app suites (support/new-app-cache.ts).
  describe('vite build, then the server from a copy of dist/ alone', () => {
    let dist: string
    beforeAll(() => {
      dist = made.plainDist
    })

    const serveAndCheck = async (env: NodeJS.ProcessEnv) => {
      const { value: server } = await startAndProbe(dist, process.execPath, ['server/index.mjs'], env, '/heartbeat')
      try {
        const page = await fetch(`${server.url}/`)
        expect(page.status).toBe(200)
        expect(page.headers.get('content-type')).toMatch(/text\/html/)
        const explorer = await fetch(`${server.url}/docs/swagger.html`)
        expect(explorer.status).toBe(200)
        expect(await fetch(`${server.url}/docs/openapi.json`).then((r) => r.json())).toMatchObject({ openapi: '3.0.3' })
        expect(server.output()).toMatch(/\(prod\) listening on/)
        expect(server.output()).not.toMatch(/VELA_DEP_|DeprecationWarning/)
      } finally {
        await server.stop()
      }
    }

    test('an app that does not import vela/telemetry bundles no SDK, exporter or prom-client (only the no-op API vela/dbl traces through)', () => {
      const bundle = readFileSync(join(dist, 'server/index.mjs'), 'utf8')
      // Modules the bundler inlined are marked with their path (`// node_modules/<package>/…`).
      const inlined = new Set(
        [...bundle.matchAll(/node_modules\/(@opentelemetry\/[a-z-]+|prom-client)\//g)].map((m) => m[1]),
      )
      expect([...inlined]).toEqual(['@opentelemetry/api'])
      expect(bundle).not.toMatch(/class NodeSDK|BatchSpanProcessor/)
    })

    test('on embedded PGlite: an HTML page, the explorer, environment prod', async () => {
      await serveAndCheck({})
    })

    test.skipIf(!hasPostgres)('on PostgreSQL (DATABASE_URL)', async () => {
      const db = await freshPostgresDatabase('vela_newapp')
      try {
        await serveAndCheck({ DATABASE_URL: db.url })
      } finally {
        await db.drop()
      }
    })
  })

  test('vite (dev) answers, then answers an edit without a restart', async () => {
    const { value: dev } = await startAndProbe(app, join(app, 'node_modules/.bin/vite'), [], {}, '/heartbeat')
    cleanup.push(() => dev.stop())
    const controller = join(app, 'src/controllers/notes_controller.ts')
    const before = readFileSync(controller, 'utf8')
    const list = 'return json({ notes: await allNotes(req.query as Page) })'
    expect(before).toContain(list)
    writeFileSync(
      controller,
      before.replace(list, 'return json({ notes: await allNotes(req.query as Page), edited: true })'),
    )
    await until(`${dev.url}/api/notes`, (body) => body.includes('"edited":true'))
    expect(dev.proc.exitCode).toBeNull()
    expect(dev.output()).not.toMatch(/VELA_DEP_|DeprecationWarning/)
  })
})

// The starter's API through the typed client: one call that compiles, one that must not.
const CLIENT_CHECK = `
import { createClient } from 'vela/client'
import type { Routes } from 'virtual:vela/routes'
const api = createClient<Routes>('http://localhost:8080')
export async function check(): Promise<number> {
  const res = await api.get('/api/notes')
  // @ts-expect-error a path the app does not have
  await api.get('/api/nope')
  return res.status
}
`

// What an app written from the docs uses before any .vela/routes.d.ts: the typed client and a
// priv/schemas name in defineRoute (both unchecked until the file is written).
const FRESH_CHECK = `
import { defineRoute, json } from 'vela'
import { createClient } from 'vela/client'
import type { Routes } from 'virtual:vela/routes'
export const draft = defineRoute('POST /api/drafts', (req) => json({ title: req.json.title }, { status: 201 }), {
  validate: { body: 'note' },
})
const api = createClient<Routes>('http://localhost:8080')
export async function check(): Promise<string> {
  const listed = await api.get('/api/notes', { query: { limit: 5 } })
  const made = await api.post('/api/notes', { body: { title: 'x' } })
  return \`\${listed.status} \${listed.body.notes.length} \${made.status}\`
}
`

// A request through an app with the telemetry stream handler, then the Prometheus text.
const TELEMETRY_CHECK = `
import { createApp, defineApp, json } from 'vela'
import { inject } from 'vela/testing'
import { setupTelemetry, telemetryStreamHandler } from 'vela/telemetry'
const telemetry = await setupTelemetry({ spanProcessors: [] })
const app = createApp(defineApp({
  bootstrapApplication: 'check',
  server: { streamHandlers: [telemetryStreamHandler, 'default'] },
  routes: { main: { prefix: '', security: false, routes: [['GET /hi', () => json({ hi: 1 })]] } },
}))
const res = await inject(app, '/hi')
await res.text() // the request ends (and is measured) once its body has been read
console.log(res.status, /^http_server_request_duration_seconds_count\\{method="GET".*\\} 1$/m.test(await telemetry.metrics()))
await telemetry.shutdown()
`
