// An app's own tests, as its developer runs them: `vitest run` in the app's folder with the app's
// vite.config.ts (`plugins: [vela()]`), test files using `createTestApp` from `vela/testing`
// (fixture: vite-plugin/test/fixtures/tested). Each run is a child process on a fresh copy.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../server/testing/index.ts'
import { useTempDirs } from '../vite-plugin/test/built-app.ts'
import { vitestRun } from '../vite-plugin/test/user-process.ts'
import { freshPostgresDatabase, serviceAvailable } from './support/services.ts'

const temp = useTempDirs()
const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8')
  expect(text).toContain(from)
  writeFileSync(file, text.replace(from, to))
}

it('passes: in-process and listener requests, rows written, each file its own in-memory database', {
  timeout: 300_000,
}, async () => {
  const app = temp.fixture('tested')
  const { code, output } = await vitestRun(app)
  expect(output).toMatch(/Test Files\s+3 passed \(3\)/)
  expect(output).toMatch(/Tests\s+8 passed \(8\)/)
  expect(code).toBe(0)
  // Under vitest the embedded database is in memory: nothing written to the app's folder.
  expect(existsSync(join(app, '.data'))).toBe(false)
})

it('fails when an assertion fails, and when two test files share a database', { timeout: 300_000 }, async () => {
  const app = temp.fixture('tested')
  edit(join(app, 'test/notes.test.ts'), 'expect(res.status).toBe(422)', 'expect(res.status).toBe(400)')
  // What isolation prevents: one database for every file (run one file after the other).
  edit(join(app, 'src/repo.ts'), 'url: process.env.DATABASE_URL', "dataDir: '.data/shared'")
  const { code, output } = await vitestRun(app, ['--no-file-parallelism'])
  expect(code).toBe(1)
  expect(output).toMatch(/FAIL .*refuses a note without a title/)
  expect(output).toContain('expected 422 to be 400')
  // Whichever file runs second finds the other's note.
  expect(output).toMatch(/FAIL .*(sees only the notes of this file|creates a note in-process and writes its row)/)
})

const postgres = await serviceAvailable('postgres')

describe.skipIf(!postgres)('with DATABASE_URL', () => {
  it('runs the app on PostgreSQL (pg stays a package Node loads)', { timeout: 300_000 }, async () => {
    const db = await freshPostgresDatabase('vela_app_tests')
    try {
      const { code, output } = await vitestRun(temp.fixture('tested'), ['test/notes.test.ts'], { DATABASE_URL: db.url })
      expect(output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(code).toBe(0)
    } finally {
      await db.drop()
    }
  })
})

it('createTestApp without vela() in the Vite config says what is missing', async () => {
  // This repository's own vitest config has no vela(): virtual:vela/app does not exist here.
  await expect(createTestApp()).rejects.toThrow(
    /createTestApp: could not load virtual:vela\/app.*plugins list vela\(\)/,
  )
})
