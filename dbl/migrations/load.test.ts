import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { defineSchema } from '../schema.ts'
import { generateMigration } from './generate.ts'
import { loadMigrations } from './load.ts'
import { OPERATIONS_MODULE, tempDir } from './test/support.ts'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeEach(async () => {
  tmp = await tempDir()
})
afterEach(async () => {
  await tmp.remove()
})

const file = (name: string, source: string) => writeFile(path.join(tmp.dir, name), source)
const valid = `import { createTable, dropTable } from ${JSON.stringify(OPERATIONS_MODULE)}
export function up() { return [createTable('a', [{ name: 'id', type: 'id', primaryKey: true }])] }
export function down() { return [dropTable('a')] }
`

test('migrations load sorted by version; malformed names are reported and skipped; unrelated files are silent', async () => {
  await file('m20240102000000_second.ts', valid.replaceAll("'a'", "'b'"))
  await file('m20240101000000_first.ts', valid)
  for (const bad of [
    'm2024_short.ts',
    'create_users.ts',
    'M20240101000000_upper.ts',
    'm20240101000000_Bad-Name.ts',
    'm20240101000000.ts',
  ])
    await file(bad, valid)
  await file('README.md', '# notes')
  await file('types.d.ts', 'export {}')
  await mkdir(path.join(tmp.dir, 'm20240103000000_folder.ts'))
  const ignored: string[] = []
  const migrations = await loadMigrations(tmp.dir, {
    onIgnored: (f, reason) => ignored.push(`${path.basename(f)}: ${reason}`),
  })
  expect(migrations.map((m) => [m.version, m.name, path.basename(m.file!)])).toEqual([
    [20240101000000, 'first', 'm20240101000000_first.ts'],
    [20240102000000, 'second', 'm20240102000000_second.ts'],
  ])
  expect(migrations[0]!.up()).toEqual([
    { op: 'createTable', table: 'a', columns: [{ name: 'id', type: 'id', primaryKey: true }] },
  ])
  expect(ignored.sort()).toEqual(
    [
      'M20240101000000_upper.ts',
      'create_users.ts',
      'm20240101000000.ts',
      'm20240101000000_Bad-Name.ts',
      'm2024_short.ts',
    ].map((f) => `${f}: a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts (name: lowercase letters, digits, _)`),
  )
})

test('a missing folder means no migrations', async () => {
  expect(await loadMigrations(path.join(tmp.dir, 'nope'))).toEqual([])
})

test('a migration without up() or down() is an error naming the file', async () => {
  await file('m20240101000000_no_down.ts', 'export function up() { return [] }\n')
  await expect(loadMigrations(tmp.dir)).rejects.toThrow(
    `migration ${tmp.dir}/m20240101000000_no_down.ts does not export down(); a migration exports up() and down() returning operations`,
  )
})

test('a module with neither export, a default export, and a file that fails to load', async () => {
  await file('m20240101000000_empty.ts', 'export const x = 1\n')
  await expect(loadMigrations(tmp.dir)).rejects.toThrow(
    `migration ${tmp.dir}/m20240101000000_empty.ts does not export up() and down()`,
  )
  await tmp.remove()
  tmp = await tempDir()
  await file(
    'm20240101000000_default.ts',
    `import { defineMigration, execute } from ${JSON.stringify(OPERATIONS_MODULE)}
export default defineMigration({ up: () => [execute('SELECT 1')], down: () => [] })
`,
  )
  expect((await loadMigrations(tmp.dir))[0]!.up()).toEqual([{ op: 'execute', sql: 'SELECT 1' }])
  await file('m20240102000000_throws.ts', "throw new Error('boom at import')\n")
  await expect(loadMigrations(tmp.dir)).rejects.toThrow(
    `migration ${tmp.dir}/m20240102000000_throws.ts could not be loaded: boom at import`,
  )
})

test('up() returning something other than operations is an error naming the file', async () => {
  await file(
    'm20240101000000_bad_return.ts',
    "export function up() { return 'CREATE TABLE x ()' }\nexport function down() { return [42] }\n",
  )
  const [m] = await loadMigrations(tmp.dir)
  expect(() => m!.up()).toThrow(
    `migration ${tmp.dir}/m20240101000000_bad_return.ts: up() must return an array of operations`,
  )
  expect(() => m!.down()).toThrow(
    `migration ${tmp.dir}/m20240101000000_bad_return.ts: down() returned 42, which is not an operation`,
  )
})

test('a custom importer (the Vite module runner) is used for every migration file', async () => {
  await file('m20240101000000_first.ts', valid)
  const seen: string[] = []
  const migrations = await loadMigrations(tmp.dir, {
    importModule: async (f) => {
      seen.push(path.basename(f))
      return { up: () => [], down: () => [] }
    },
  })
  expect(seen).toEqual(['m20240101000000_first.ts'])
  expect(migrations[0]!.up()).toEqual([])
})

test('two files with the same version are refused', async () => {
  await file('m20240101000000_one.ts', valid)
  await file('m20240101000000_two.ts', valid)
  await expect(loadMigrations(tmp.dir)).rejects.toThrow(
    `two migrations share version 20240101000000: ${tmp.dir}/m20240101000000_one.ts and ${tmp.dir}/m20240101000000_two.ts`,
  )
})

test('the generator reports ignored files as warnings and names the migration that cannot be replayed', async () => {
  const schemas = [defineSchema({ table: 'a', fields: { id: 'id' } })]
  await file('m20240101000000_first.ts', valid)
  await file('notes.ts', 'export {}\n')
  const r = await generateMigration({ schemas, migrationsDir: tmp.dir, importFrom: OPERATIONS_MODULE })
  expect(r.written).toBe(null)
  expect(r.warnings).toEqual([
    `ignored ${tmp.dir}/notes.ts: a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts (name: lowercase letters, digits, _)`,
  ])
  await file(
    'm20240102000000_broken.ts',
    `import { alterTable, dropColumn } from ${JSON.stringify(OPERATIONS_MODULE)}
export function up() { return [alterTable('missing', [dropColumn('x')])] }
export function down() { return [] }
`,
  )
  await expect(generateMigration({ schemas, migrationsDir: tmp.dir, importFrom: OPERATIONS_MODULE })).rejects.toThrow(
    `migration ${tmp.dir}/m20240102000000_broken.ts: table "missing" does not exist at this point of the migrations`,
  )
})
