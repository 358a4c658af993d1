// virtual:vela/migrations under the dev server: the app migrates at start, a migration file added
// while it runs is applied by the swap that follows, and a schema edit writes its migration first.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, expect, it } from 'vitest'
import type { VelaApp } from '../../server/app/create-app.ts'
import { startDevServer } from './dev-server.ts'
import vela from '../index.ts'
import { copyFixture } from '../test/built-app.ts'

const root = copyFixture('notes')
const data = mkdtempSync(join(tmpdir(), 'vela-notes-dev-'))
afterAll(() => [root, data].forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const applied = async () => {
  const db = new PGlite(data)
  try {
    return (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version')).rows.map(
      (r) => r.name,
    )
  } finally {
    await db.close()
  }
}

it('migrates at start, and applies a migration added while the dev server runs', async () => {
  process.env.NOTES_DATA = data
  const server = await startDevServer({ root, port: 0, plugins: [vela()] })
  try {
    expect(await (await fetch(`${server.url}/api/notes`)).json()).toEqual({ notes: [] })
    writeFileSync(
      join(root, 'src/migrations/m20991231000000_create_tags.ts'),
      "import { createTable, dropTable } from 'vela/dbl'\nexport const up = () => [createTable('tags', [{ name: 'id', type: 'id', primaryKey: true }])]\nexport const down = () => [dropTable('tags')]\n",
    )
    // The swap runs after the watcher reports the file (debounced); the new app is current once its start hook ran.
    const first = server.devApp.current
    const deadline = Date.now() + 10_000
    while (server.devApp.current === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(server.devApp.current).not.toBe(first)
  } finally {
    await server.close()
    delete process.env.NOTES_DATA
  }
  expect(await applied()).toEqual(['create_notes', 'create_tags'])
}, 90_000) // a dev server start with an embedded database, then a hot swap

it('a schema edit writes its migration and the swap applies it; a change needing a decision prints it once and writes nothing', async () => {
  const app = copyFixture('notes')
  const dataDir = mkdtempSync(join(tmpdir(), 'vela-notes-schema-'))
  const migrations = () => readdirSync(join(app, 'src/migrations')).sort()
  const schema = join(app, 'src/schemas/note.ts')
  const editSchema = (from: string, to: string) => {
    const text = readFileSync(schema, 'utf8')
    expect(text).toContain(from)
    writeFileSync(schema, text.replace(from, to))
  }
  const created = migrations()
  process.env.NOTES_DATA = dataDir
  const server = await startDevServer({
    root: app,
    port: 0,
    plugins: [vela({ dev: { debounceMs: 20, log: () => {} } })],
  })
  const swapped = async (from: VelaApp) => {
    const deadline = Date.now() + 10_000
    while (server.devApp.current === from && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    await new Promise((r) => setTimeout(r, 150))
    await server.devApp.settled()
  }
  const errors: string[] = []
  const original = console.error
  try {
    // The dev server's start wrote nothing: the migrations match the schemas.
    expect(migrations()).toEqual(created)
    let serving = server.devApp.current
    editSchema("body: { type: 'text', nullable: false } }", "body: { type: 'text', nullable: false }, title: 'text' }")
    await swapped(serving)
    const added = migrations().filter((f) => !created.includes(f))
    expect(added).toEqual([expect.stringMatching(/^m\d{14}_alter_notes\.ts$/)])
    expect(readFileSync(join(app, 'src/migrations', added[0]!), 'utf8')).toMatch(
      /alterTable\('notes', \[\s*addColumn\(\{ name: 'title', type: 'text' \}\)/,
    )
    // The new app selects the new column: it exists.
    const res = await fetch(`${server.url}/api/notes`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ notes: [] })

    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
    serving = server.devApp.current
    editSchema("title: 'text' }", "heading: 'text' }")
    await swapped(serving)
    serving = server.devApp.current
    editSchema("heading: 'text' }", "heading: { type: 'text' } }")
    await swapped(serving)
    expect(migrations()).toEqual([...created, ...added])
  } finally {
    console.error = original
    await server.close()
    delete process.env.NOTES_DATA
  }
  const decisions = errors.filter((e) => e.includes('Migration not generated'))
  expect(decisions).toHaveLength(1)
  expect(decisions[0]).toContain('--rename notes.heading=title')
  expect(decisions[0]).toContain('--drop-column notes.title')
  const db = new PGlite(dataDir)
  try {
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY column_name",
    )
    expect(columns.rows.map((r) => r.column_name)).toEqual(['body', 'id', 'title'])
  } finally {
    await db.close()
    rmSync(app, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 60_000)
