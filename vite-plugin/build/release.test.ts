// `vela release [--profile]` and `vite build` on an app with priv/schemas/ and migrations: the
// OpenAPI files in priv/assets/ (and dist/priv/assets/), the profile (else prod) as the built
// server's environment, and a built server that migrates its database with no source tree beside it.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { build } from 'vite'
import { describe, expect, it } from 'vitest'
import vela from '../index.ts'
import { BIN, startBuilt, useTempDirs } from '../test/built-app.ts'

const run = promisify(execFile)
const temp = useTempDirs()
const fixture = () => temp.fixture('notes')

const ASSETS = ['openapi.json', 'swagger.html', 'swagger-initializer.js', 'swagger-ui.css', 'swagger-ui-bundle.js']

describe('vela release --profile staging', () => {
  const root = fixture()
  let stdout = ''

  it('writes priv/assets/openapi.json and the explorer, then dist/server/index.mjs, one line per file', async () => {
    ;({ stdout } = await run(process.execPath, [BIN, 'release', '--root', root, '--profile', 'staging'], {
      env: { ...process.env, VELA_ENV: '' },
    }))
    const rel = relative(process.cwd(), root)
    expect(stdout.trim().split('\n')).toEqual([
      ...ASSETS.map((f) => `Generated ${rel}/priv/assets/${f}`),
      `Built ${rel}/dist/server/index.mjs`,
    ])
    const doc = JSON.parse(readFileSync(join(root, 'priv/assets/openapi.json'), 'utf8'))
    expect(doc.info).toMatchObject({ title: 'notes', version: '0.1.0' })
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/env', '/api/notes'])
    expect(doc.paths['/api/notes'].get.operationId).toBe('notes_controller.index')
    expect(doc.components.schemas.note.required).toEqual(['body'])
    expect(readFileSync(join(root, 'priv/assets/swagger.html'), 'utf8')).toContain('data-url="./openapi.json"')
  }, 300_000)

  it('the built server runs in the staging environment, unless VELA_ENV says otherwise', async () => {
    const staging = await startBuilt(join(root, 'dist'))
    expect(staging.output()).toContain('vela: notes (staging) listening on')
    // The profile is Vite's mode too: .env.staging's VITE_ values are inlined.
    expect(await (await fetch(`${staging.url}/api/env`)).json()).toEqual({
      env: 'staging',
      mode: 'staging',
      greeting: 'hello from staging',
    })
    expect(await staging.stop()).toBe(0)

    const prod = await startBuilt(join(root, 'dist'), { VELA_ENV: 'prod' })
    expect(await (await fetch(`${prod.url}/api/env`)).json()).toEqual({
      env: 'prod',
      mode: 'staging',
      greeting: 'hello from staging',
    })
    expect(await prod.stop()).toBe(0)
  }, 300_000)

  it('the built server applies the bundled migrations to its database, with no src/ beside it', async () => {
    const data = temp.dir('vela-notes-db-')
    const server = await startBuilt(join(root, 'dist'), { NOTES_DATA: data })
    expect(await (await fetch(`${server.url}/api/notes`)).json()).toEqual({ notes: [] })
    expect(await server.stop()).toBe(0)

    const db = new PGlite(data)
    try {
      const [migration] = readdirSync(join(root, 'src/migrations'))
      const version = Number(/^m(\d{14})_/.exec(migration!)![1])
      expect((await db.query('SELECT version::text, name FROM schema_migrations')).rows).toEqual([
        { version: String(version), name: 'create_notes' },
      ])
      await db.query("INSERT INTO notes (body) VALUES ('written after the migration')")
      expect((await db.query('SELECT id, body FROM notes')).rows).toEqual([
        { id: 1, body: 'written after the migration' },
      ])
    } finally {
      await db.close()
    }
  }, 300_000)
})

it('vela release with a bad profile name is a usage error (exit code 2) before building', async () => {
  const root = fixture()
  const err = await run(process.execPath, [BIN, 'release', '--root', root, '--profile', '../prod']).catch(
    (e: { code: number; stderr: string }) => e,
  )
  expect(err).toMatchObject({ code: 2 })
  expect((err as { stderr: string }).stderr.split('\n')[0]).toBe(
    'vela release: invalid profile "../prod": a profile is a letter followed by letters, digits, - or _ (at most 40), not "local"; e.g. prod, staging',
  )
  expect(existsSync(join(root, 'dist'))).toBe(false)
  expect(existsSync(join(root, 'priv/assets'))).toBe(false)
})

it('a plain vite build writes the OpenAPI files too (in priv/assets and dist/priv/assets), and without a mode runs as prod unless VELA_ENV says otherwise', async () => {
  const root = fixture()
  await build({ root, configFile: false, plugins: [vela()], logLevel: 'silent' })
  expect(readdirSync(join(root, 'priv/assets')).sort()).toEqual([...ASSETS].sort())
  expect(readdirSync(join(root, 'dist/priv/assets')).sort()).toEqual([...ASSETS].sort())
  expect(JSON.parse(readFileSync(join(root, 'priv/assets/openapi.json'), 'utf8')).paths['/api/notes'].get).toBeDefined()
  const server = await startBuilt(join(root, 'dist'))
  expect(server.output()).toContain('vela: notes (prod) listening on')
  expect(await (await fetch(`${server.url}/api/env`)).json()).toEqual({
    env: 'prod',
    mode: 'production',
    greeting: null,
  })
  expect(await server.stop()).toBe(0)

  const staging = await startBuilt(join(root, 'dist'), { VELA_ENV: 'staging' })
  expect(staging.output()).toContain('vela: notes (staging) listening on')
  expect(await (await fetch(`${staging.url}/api/env`)).json()).toEqual({
    env: 'staging',
    mode: 'production',
    greeting: null,
  })
  expect(await staging.stop()).toBe(0)
}, 300_000)

it("Vite's own CLI (vite build --configLoader runner --mode staging) runs the same steps: migration, bundle, OpenAPI files", async () => {
  const root = fixture()
  const schema = join(root, 'src/schemas/note.ts')
  writeFileSync(
    schema,
    readFileSync(schema, 'utf8').replace(
      "body: { type: 'text', nullable: false } }",
      "body: { type: 'text', nullable: false }, title: 'string' }",
    ),
  )
  const vite = join(process.cwd(), 'node_modules/vite/bin/vite.js')
  const { stdout } = await run(process.execPath, [vite, 'build', '--configLoader', 'runner', '--mode', 'staging'], {
    cwd: root,
  })
  const generated = stdout.split('\n').filter((l) => l.startsWith('Generated '))
  expect(generated).toEqual([
    expect.stringMatching(/^Generated src\/migrations\/m\d{14}_alter_notes\.ts$/),
    ...ASSETS.map((f) => `Generated priv/assets/${f}`),
  ])
  expect(readdirSync(join(root, 'src/migrations'))).toHaveLength(2)
  const server = await startBuilt(join(root, 'dist'))
  expect(await (await fetch(`${server.url}/api/env`)).json()).toEqual({
    env: 'staging',
    mode: 'staging',
    greeting: 'hello from staging',
  })
  expect(await server.stop()).toBe(0)
}, 300_000)
