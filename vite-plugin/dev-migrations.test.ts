// virtual:vela/migrations under the dev server: the app migrates at start, and a migration file
// added while it runs is applied by the swap that follows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, expect, it } from 'vitest'
import { startDevServer } from './dev-server.ts'
import vela from './index.ts'
import { copyFixture } from './test/built-app.ts'

const root = copyFixture('notes')
const data = mkdtempSync(join(tmpdir(), 'vela-notes-dev-'))
afterAll(() => [root, data].forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const applied = async () => {
  const db = new PGlite(data)
  try {
    return (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version')).rows.map((r) => r.name)
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
}, 30_000)
