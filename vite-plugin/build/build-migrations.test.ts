// The build's `buildStart`: src/schemas diffed against src/migrations. A plain change becomes a new
// migration the bundle carries; a possible rename stops the build until the user decides.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { expect, it } from 'vitest'
import { BIN, startBuilt, useTempDirs } from '../test/built-app.ts'

const run = promisify(execFile)
const temp = useTempDirs()
const fixture = () => temp.fixture('notes')
/** Replaces the notes schema's fields. */
const setFields = (root: string, fields: string) =>
  writeFileSync(
    join(root, 'src/schemas/note.ts'),
    `import { defineSchema } from 'vela/dbl'\n\nexport const Note = defineSchema({ table: 'notes', fields: ${fields} })\n`,
  )

it('a column added to a schema: the build writes the migration, and the built server applies it', async () => {
  const root = fixture()
  const [first] = readdirSync(join(root, 'src/migrations'))
  setFields(root, `{ id: 'id', body: { type: 'text', nullable: false }, title: 'string' }`)
  const { stdout, stderr } = await run(process.execPath, [BIN, 'release', '--root', root])
  // PGlite's own use of eval is not the app's business: the bundler's warnings about it are left out.
  expect(stderr).not.toContain('[EVAL]')

  const files = readdirSync(join(root, 'src/migrations')).sort()
  expect(files).toHaveLength(2)
  expect(files[0]).toBe(first)
  expect(files[1]).toMatch(/^m\d{14}_alter_notes\.ts$/)
  expect(readFileSync(join(root, 'src/migrations', files[1]!), 'utf8')).toContain(
    "addColumn({ name: 'title', type: 'string' })",
  )
  expect(stdout.split('\n')[0]).toBe(`Generated ${relative(process.cwd(), join(root, 'src/migrations', files[1]!))}`)
  expect(stdout).toContain(`Built ${relative(process.cwd(), join(root, 'dist/server/index.mjs'))}`)

  const data = temp.dir('vela-notes-db-')
  const server = await startBuilt(join(root, 'dist'), { NOTES_DATA: data })
  expect(await server.stop()).toBe(0)
  const db = new PGlite(data)
  try {
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY ordinal_position",
    )
    expect(columns.rows.map((r) => r.column_name)).toEqual(['id', 'body', 'title'])
    expect(
      (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version')).rows.map((r) => r.name),
    ).toEqual(['create_notes', 'alter_notes'])
  } finally {
    await db.close()
  }

  // Built again with nothing changed: no third migration.
  await run(process.execPath, [BIN, 'release', '--root', root])
  expect(readdirSync(join(root, 'src/migrations'))).toHaveLength(2)
}, 90_000)

it('a possible rename fails the build with the decision to make; nothing is written', async () => {
  const root = fixture()
  setFields(root, `{ id: 'id', text: { type: 'text', nullable: false } }`)
  const err = (await run(process.execPath, [BIN, 'release', '--root', root]).catch((e: unknown) => e)) as {
    code: number
    stderr: string
  }
  expect(err.code).toBe(1)
  expect(err.stderr).toContain('Migration not generated: a column disappears while another appears in the same table')
  expect(err.stderr).toContain('(CLI: --rename notes.text=body)')
  expect(err.stderr).toContain('(CLI: --drop-column notes.body)')
  expect(err.stderr).toContain(
    'run `vela migrations generate` with the flags above (--rename, --drop-column, --allow-unsafe',
  )
  expect(err.stderr).not.toMatch(/^\s+at /m) // an expected stop: no stack trace
  expect(readdirSync(join(root, 'src/migrations'))).toHaveLength(1)
  expect(existsSync(join(root, 'dist'))).toBe(false)

  // The user decides; the build then goes through with that migration.
  const decide = ['--rename', 'notes.text=body', '--allow-unsafe', 'rename-column']
  await run(process.execPath, [BIN, 'migrations', 'generate', '--root', root, ...decide])
  await run(process.execPath, [BIN, 'release', '--root', root])
  expect(readdirSync(join(root, 'src/migrations'))).toHaveLength(2)
  expect(existsSync(join(root, 'dist/server/index.mjs'))).toBe(true)
}, 90_000)
