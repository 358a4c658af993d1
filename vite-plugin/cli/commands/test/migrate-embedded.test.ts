// `vela migrate` on an app whose repo is `defineRepo({ url: process.env.DATABASE_URL })` with no
// URL: the embedded database lives in the app's .data/pglite, so what one command writes the next
// one reads; `DATABASE_URL=memory:` keeps it in memory instead. Commands run as a user runs them,
// outside any test environment (fixture: vite-plugin/test/fixtures/tested).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
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
