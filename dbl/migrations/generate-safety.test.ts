// The generator refuses to write a migration doing what is unsafe on a production database until
// each check is acknowledged; the file it then writes carries the acknowledgement (`safetyAssured`)
// that `migrate` reads. An index added to an existing table is written CONCURRENTLY, outside a
// transaction, when the migration holds nothing else.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createPgliteAdapter } from '../adapters/pglite.ts'
import { defineSchema } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { loadMigrations } from './load.ts'
import { migrate } from './migrator.ts'
import { UnsafeMigrationError } from './safety.ts'
import { OPERATIONS_MODULE, tempDir } from './test/support.ts'

const notes = (fields: Record<string, unknown>, indexes: { columns: string[] }[] = []) =>
  defineSchema({ table: 'notes', fields: { id: 'id', ...fields } as unknown as Record<string, 'string'>, indexes })

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeEach(async () => {
  tmp = await tempDir()
})
afterEach(async () => {
  await tmp.remove()
})

let clock = Date.UTC(2024, 0, 1)
const generate = (schemas: ReturnType<typeof notes>[], decisions = {}) =>
  generateMigration({
    schemas,
    migrationsDir: tmp.dir,
    decisions,
    importFrom: OPERATIONS_MODULE,
    now: new Date((clock += 60_000)),
  })
const newest = async () => readFile(path.join(tmp.dir, (await readdir(tmp.dir)).sort().at(-1)!), 'utf8')

test('a removed field keeps its column, with the deploy order, until drop-column is acknowledged', async () => {
  await generate([notes({ title: 'string', author: 'string' }, [{ columns: ['author'] }])])
  const alone = await generate([notes({ title: 'string' })])
  expect(alone.written).toBe(null)
  expect(alone.warnings).toEqual([
    'notes.author is no longer a field of the notes schema; its column is kept. Deploy this code first (nothing reads the column any more), ' +
      "then drop it: vela migrations generate --allow-unsafe drop-column (a NOT NULL column without a default must first become nullable, or the new code's inserts fail)",
  ])
  // Other changes are written without the drop, and the column's index stays. (A field appearing
  // as another goes is a possible rename: the dropColumns decision says it is not.)
  const other = await generate([notes({ title: 'string', body: 'text' })], { dropColumns: ['notes.author'] })
  expect(other.written).not.toBe(null)
  expect(other.warnings).toHaveLength(1)
  const up = (await newest()).split('export function down')[0]!
  expect(up).toContain("addColumn({ name: 'body', type: 'text' })")
  expect(up).not.toContain('dropColumn(')
  expect(up).not.toContain('dropIndex(')
  const dropped = await generate([notes({ title: 'string', body: 'text' })], { allowUnsafe: ['drop-column'] })
  expect(dropped.warnings).toEqual([])
  expect(await newest()).toContain("dropColumn('author')")
  expect(await newest()).toContain("export const safetyAssured = ['drop-column']\n")
  expect((await generate([notes({ title: 'string', body: 'text' })])).written).toBe(null)
})

test('a rename refused at generation says the risk, the safe way and the flag; nothing is written', async () => {
  await generate([notes({ title: 'string', author: 'string' })])
  const before = await readdir(tmp.dir)
  const err = await generate([notes({ title: 'string', writer: { type: 'string', renamedFrom: 'author' } })]).catch(
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(UnsafeMigrationError)
  expect((err as Error).message).toBe(
    [
      'Migration not generated: it does what is unsafe on a production database:',
      '  - renames the column notes.author to writer (rename-column)',
      '      risk: code still running during the deploy selects the old name and fails until every instance runs the new code',
      "      safe way: add a column with the new name, write both, backfill it, switch reads to it, then drop the old column; or keep the column name and change only the field name (column: '<old name>' on the field)",
      "To write it as it is, acknowledge the check: vela migrations generate --allow-unsafe rename-column (decisions { allowUnsafe: ['rename-column'] }); the file then exports safetyAssured with those names, so `vela migrate` applies it.",
    ].join('\n'),
  )
  expect(await readdir(tmp.dir)).toEqual(before)
})

test('every unacknowledged check is listed; acknowledging only some still writes nothing', async () => {
  await generate([notes({ title: 'string', author: 'string' })])
  const schemas = [notes({ title: 'integer', writer: { type: 'string', renamedFrom: 'author' } })]
  const err = (await generate(schemas, { allowUnsafe: ['rename-column'] }).catch((e: unknown) => e)) as Error
  expect(err.message).toContain('changes the type of notes.title to integer (change-column-type)')
  expect(err.message).not.toContain('rename-column')
  expect(err.message).toContain('vela migrations generate --allow-unsafe change-column-type (')
  expect(await readdir(tmp.dir)).toHaveLength(1)
})

test('acknowledged, the file exports safetyAssured and migrate applies it to a table with rows', async () => {
  await generate([notes({ title: 'string', author: 'string' })])
  const written = await generate([notes({ title: 'string' })], { allowUnsafe: ['drop-column', 'change-column-type'] })
  expect(written.written).not.toBe(null)
  const source = await newest()
  // Only the checks the migration needs are written.
  expect(source).toContain("export const safetyAssured = ['drop-column']\n")
  const migrations = await loadMigrations(tmp.dir)
  expect(migrations.map((m) => m.safetyAssured)).toEqual([undefined, ['drop-column']])
  const db = await createPgliteAdapter()
  try {
    await migrate(db, migrations.slice(0, 1))
    await db.query("INSERT INTO notes (title, author) VALUES ('kept', 'gone')")
    expect(await migrate(db, migrations)).toHaveLength(1)
    expect((await db.query('SELECT * FROM notes')).rows).toEqual([{ id: 1, title: 'kept' }])
  } finally {
    await db.close()
  }
})

test('an index added to an existing table alone is written CONCURRENTLY with transaction = false', async () => {
  await generate([notes({ title: 'string' })])
  await generate([notes({ title: 'string' }, [{ columns: ['title'] }])])
  const source = await newest()
  expect(source).toContain('export const transaction = false\n')
  expect(source).toContain("createIndex('notes', ['title'], { name: 'notes_title_index', concurrently: true })")
  expect(source).toContain("dropIndex('notes', 'notes_title_index', { concurrently: true })")
  const migrations = await loadMigrations(tmp.dir)
  expect(migrations.at(-1)!.transaction).toBe(false)
  const db = await createPgliteAdapter()
  try {
    await migrate(db, migrations, { largeTableRows: 1 })
    expect((await db.query("SELECT indexname FROM pg_indexes WHERE tablename = 'notes' ORDER BY 1")).rows).toEqual([
      { indexname: 'notes_pkey' },
      { indexname: 'notes_title_index' },
    ])
  } finally {
    await db.close()
  }
})

test('an index added with other changes stays in the transaction, with a warning; a new table needs nothing', async () => {
  await generate([notes({ title: 'string' })])
  const result = await generate([notes({ title: 'string', body: 'text' }, [{ columns: ['title'] }])])
  expect(result.warnings).toEqual([
    "creates the index notes_title_index without CONCURRENTLY on the existing table notes, inside the migration's transaction: it blocks writes to notes while it builds, and `vela migrate` refuses it on a large table. To build it CONCURRENTLY, generate the index in a migration of its own.",
  ])
  expect(await newest()).not.toContain('transaction')
  const fresh = await tempDir()
  try {
    const created = await generateMigration({
      schemas: [notes({ title: 'string' }, [{ columns: ['title'] }])],
      migrationsDir: fresh.dir,
      importFrom: OPERATIONS_MODULE,
    })
    expect(created.warnings).toEqual([])
  } finally {
    await fresh.remove()
  }
})

test('a migration file naming an unknown check in safetyAssured is an error naming the checks', async () => {
  await writeFile(
    path.join(tmp.dir, 'm20240101000000_create_notes.ts'),
    "export const safetyAssured = ['drop-everything']\nexport const up = () => []\nexport const down = () => []\n",
  )
  await expect(loadMigrations(tmp.dir)).rejects.toThrow(
    'safetyAssured: "drop-everything" is not a safety check; the checks are add-not-null-column, create-index, change-column-type, drop-column, rename-column, add-check',
  )
})
