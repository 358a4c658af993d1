// New embedded databases start from the template file: written by the first one, loaded by the
// next ones (in memory and in an empty folder), never over a folder that holds a database, and
// replaced when PGlite cannot start from it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

it('the first new database writes the template; the next ones, in memory or in an empty folder, start from it', async () => {
  const file = join(dir, 'first.tgz')
  const first = await openPglite(undefined, {}, file)
  await first.query('CREATE TABLE after_start (v int)')
  await first.close()
  expect(existsSync(file)).toBe(true)

  // Another template, holding a table, shows which one a database started from.
  const marked = await PGlite.create()
  await marked.query('CREATE TABLE from_template (v int)')
  const file2 = join(dir, 'marked.tgz')
  writeFileSync(file2, new Uint8Array(await (await marked.dumpDataDir('gzip')).arrayBuffer()))
  await marked.close()

  // The first template is the empty database: the table made after it started is not in it.
  const fromFirst = await openPglite(undefined, {}, file)
  expect(await tables(fromFirst)).toEqual([])
  await fromFirst.close()

  const inMemory = await openPglite(undefined, {}, file2)
  expect(await tables(inMemory)).toEqual(['from_template'])
  await inMemory.close()

  const folder = join(dir, 'data')
  const onDisk = await openPglite(folder, {}, file2)
  await onDisk.query('INSERT INTO from_template VALUES (1)')
  await onDisk.close()
  // A folder holding a database is opened as it is, template or not.
  const again = await openPglite(folder, {}, file)
  expect((await again.query('SELECT v FROM from_template')).rows).toEqual([{ v: 1 }])
  await again.close()
}, 120_000)

it('a template PGlite cannot start from is replaced; the database is made with initdb, in an empty folder too', async () => {
  const file = join(dir, 'broken.tgz')
  writeFileSync(file, 'not a tarball')
  const folder = join(dir, 'after-broken')
  const db = await openPglite(folder, {}, file)
  expect(await tables(db)).toEqual([])
  await db.query('CREATE TABLE kept (v int)')
  await db.close()
  expect(readFileSync(file).length).toBeGreaterThan(1000)
  const reopened = await PGlite.create(folder)
  expect(await tables(reopened)).toEqual(['kept'])
  await reopened.close()
}, 120_000)
