// `vela migrate` on an app whose repo is `defineRepo({ url: process.env.DATABASE_URL })` with no
// URL: the embedded database lives in the app's .data/pglite, so what one command writes the next
// one reads; `DATABASE_URL=memory:` keeps it in memory instead; a migration unsafe on the rows it
// finds there is refused. Commands run as a user runs them,
// outside any test environment (fixture: vite-plugin/test/fixtures/tested).
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { expect, it } from 'vitest'
import { useTempDirs } from '../../../test/built-app.ts'
import { vela } from '../../../test/user-process.ts'

const temp = useTempDirs()
const MIGRATION = '20261201090000 create_notes'

it('migrates into <app>/.data/pglite and the next process finds the migration applied', {
  timeout: 120_000,
}, async () => {
  const app = temp.fixture('tested')
  const first = await vela(app, ['migrate'])
  expect(first.output).toContain(`migrated ${MIGRATION}`)
  expect(first.code).toBe(0)
  expect(existsSync(join(app, '.data', 'pglite', 'PG_VERSION'))).toBe(true)

  const status = await vela(app, ['migrate', '--status'])
  expect(status.output).toMatch(new RegExp(`^up\\s+${MIGRATION}$`, 'm'))
  expect(status.code).toBe(0)
  const again = await vela(app, ['migrate'])
  expect(again.output).toContain('already up to date')
})

it('DATABASE_URL=memory: keeps the embedded database in memory', { timeout: 120_000 }, async () => {
  const app = temp.fixture('tested')
  const env = { DATABASE_URL: 'memory:' }
  expect((await vela(app, ['migrate'], env)).output).toContain(`migrated ${MIGRATION}`)
  expect((await vela(app, ['migrate', '--status'], env)).output).toMatch(new RegExp(`^pending\\s+${MIGRATION}$`, 'm'))
  expect(existsSync(join(app, '.data'))).toBe(false)
})

it('refuses a migration dropping a column of a table with rows until --allow-unsafe names the check', {
  timeout: 300_000,
}, async () => {
  const app = temp.fixture('tested')
  expect((await vela(app, ['migrate'])).output).toContain(`migrated ${MIGRATION}`)
  const db = new PGlite(join(app, '.data', 'pglite'))
  await db.query("INSERT INTO notes (title) VALUES ('kept')")
  await db.close()
  writeFileSync(
    join(app, 'src/migrations/m20261202090000_alter_notes.ts'),
    [
      "import { addColumn, alterTable, dropColumn } from 'vela/dbl'",
      "export const up = () => [alterTable('notes', [dropColumn('title')])]",
      "export const down = () => [alterTable('notes', [addColumn({ name: 'title', type: 'string' })])]",
      '',
    ].join('\n'),
  )
  const refused = await vela(app, ['migrate'])
  expect(refused.code).toBe(1)
  expect(refused.output).toContain(
    'm20261202090000_alter_notes.ts not applied: it does what is unsafe on tables that have rows',
  )
  expect(refused.output).toContain('drops the column notes.title (drop-column)')
  expect(refused.output).toContain('safe way: first deploy code that no longer reads the field')
  expect(refused.output).toContain("export const safetyAssured = ['drop-column']")
  expect((await vela(app, ['migrate', '--status'])).output).toMatch(/^pending\s+20261202090000 alter_notes$/m)

  const allowed = await vela(app, ['migrate', '--allow-unsafe', 'drop-column'])
  expect(allowed.output).toContain('migrated 20261202090000 alter_notes')
  expect(allowed.code).toBe(0)
})
