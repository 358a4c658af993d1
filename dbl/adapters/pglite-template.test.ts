// New embedded databases start from the template file: written by a database made with initdb,
// loaded by the next ones (in memory, and in an empty folder through a template folder made from
// it), never over a folder that holds a database, and replaced when PGlite cannot start from it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, expect, it } from 'vitest'
import { openPglite, templateFile } from './pglite-template.ts'

const dir = mkdtempSync(join(tmpdir(), 'vela-pglite-template-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const tables = async (db: PGlite) =>
  (await db.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'")).rows.map(
    (r) => r.t,
  )

it('the installed PGlite has a template file in a folder only this user can read', () => {
  expect(templateFile()).toMatch(/\/vela-\d+\/pglite-\d+\.\d+\.\d+-empty\.tgz$/)
})

// One initdb in all (each costs seconds): the broken template's fallback, which writes the template.
it('a template PGlite cannot start from is replaced by the empty database made with initdb; new databases, in memory or in an empty folder, start from the template', async () => {
  const file = join(dir, 'template.tgz')
  writeFileSync(file, 'not a tarball')
  const first = join(dir, 'first')
  const db = await openPglite(first, {}, file)
  expect(await tables(db)).toEqual([])
  expect(readFileSync(file).length).toBeGreaterThan(1000)
  await db.query('CREATE TABLE after_start (v int)')
  await db.query('INSERT INTO after_start VALUES (1)')
  // Another template, holding a table, shows which one a database started from.
  const marked = join(dir, 'marked.tgz')
  writeFileSync(marked, new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer()))
  await db.close()
  // What the failed load left in the folder was cleared before initdb: the database opens as made.
  const reopened = await PGlite.create(first)
  expect((await reopened.query('SELECT v FROM after_start')).rows).toEqual([{ v: 1 }])
  await reopened.close()

  // The template is the database as it started: the table made afterwards is not in it.
  const fromTemplate = await openPglite(undefined, {}, file)
  expect(await tables(fromTemplate)).toEqual([])
  await fromTemplate.close()

  const inMemory = await openPglite(undefined, {}, marked)
  expect((await inMemory.query('SELECT v FROM after_start')).rows).toEqual([{ v: 1 }])
  await inMemory.close()

  const folder = join(dir, 'second')
  const onDisk = await openPglite(folder, {}, marked)
  await onDisk.query('INSERT INTO after_start VALUES (2)')
  await onDisk.close()
  // A folder holding a database is opened as it is, whatever the template.
  const again = await openPglite(folder, {}, file)
  expect((await again.query('SELECT v FROM after_start ORDER BY v')).rows).toEqual([{ v: 1 }, { v: 2 }])
  await again.close()
}, 120_000)

it('a new database in a folder is a copy of the template folder, made once from the tarball; a template folder PGlite cannot start from is removed and the tarball used', async () => {
  // A tarball holding a table shows that the databases came from it.
  const source = await openPglite(undefined, {})
  await source.query('CREATE TABLE from_tarball (v int)')
  const file = join(dir, 'folder.tgz')
  writeFileSync(file, new Uint8Array(await (await source.dumpDataDir('gzip')).arrayBuffer()))
  await source.close()
  const folder = join(dir, 'folder.dir')

  const first = await openPglite(join(dir, 'copy-1'), {}, file)
  expect(await tables(first)).toEqual(['from_tarball'])
  await first.close()
  expect(readdirSync(folder)).toContain('PG_VERSION')

  // Broken: PGlite cannot start from it.
  for (const entry of readdirSync(folder)) if (entry !== 'PG_VERSION') rmSync(join(folder, entry), { recursive: true })
  const second = await openPglite(join(dir, 'copy-2'), {}, file)
  expect(await tables(second)).toEqual(['from_tarball'])
  await second.close()
  expect(existsSync(folder)).toBe(false)

  const third = await openPglite(join(dir, 'copy-3'), {}, file)
  expect(await tables(third)).toEqual(['from_tarball'])
  await third.close()
  expect(existsSync(folder)).toBe(true)
}, 120_000)
