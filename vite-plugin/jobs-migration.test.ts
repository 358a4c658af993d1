import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defineJob } from '../jobs/define.ts'
import { jobTables } from '../jobs/tables.ts'
import type { DeferredSql } from '../dbl/migrations/operations.ts'
import { writeJobsMigration } from './jobs-migration.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** An app folder whose modules the loader answers from `modules` (path under the root → module). */
function app(modules: Record<string, unknown>) {
  const root = mkdtempSync(join(tmpdir(), 'vela-jobs-migration-'))
  dirs.push(root)
  for (const file of Object.keys(modules)) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), '// stand-in: the loader gives the module\n')
  }
  const load = async (file: string) => {
    const rel = file.slice(root.length + 1)
    if (rel in modules) return modules[rel] as Record<string, unknown>
    // The migration written: its functions are jobTables'.
    if (rel.endsWith('_create_jobs.ts')) return { up: jobTables.up, down: jobTables.down }
    throw new Error(`unexpected load of ${rel}`)
  }
  return { root, load, migrations: join(root, 'src/migrations') }
}

describe('the jobs tables migration', () => {
  it('is written once the app has a job, and not again', async () => {
    const a = app({ 'src/jobs/send_welcome.ts': { default: defineJob({ handler: () => {} }) } })
    const now = new Date(Date.UTC(2026, 11, 8, 9, 0, 0))
    const file = await writeJobsMigration(a.root, a.migrations, a.load, now)
    expect(file).toBe(join(a.migrations, 'm20261208090000_create_jobs.ts'))
    expect(readFileSync(file!, 'utf8')).toContain("import { jobTables } from 'vela/jobs'")
    expect(await writeJobsMigration(a.root, a.migrations, a.load, now)).toBeNull()
    expect(readdirSync(a.migrations)).toEqual(['m20261208090000_create_jobs.ts'])
  })

  it('is not written for an app without jobs', async () => {
    const a = app({ 'src/jobs/_helpers.ts': {}, 'src/jobs/notes.ts': { something: 1 } })
    expect(await writeJobsMigration(a.root, a.migrations, a.load)).toBeNull()
  })

  it('installs the tables without a transaction of its own (the migrator has one), its SQL loaded as it runs', async () => {
    const [op] = jobTables.up()
    expect(op).toMatchObject({ op: 'execute', sql: { about: expect.stringMatching(/^-- vela\/jobs: /) } })
    const sql = await (op as { sql: DeferredSql }).sql.load()
    expect(sql).toMatch(/^-- vela\/jobs: the job engine tables/)
    expect(sql).not.toMatch(/^\s*(BEGIN|COMMIT);/m)
    expect(sql).toContain('CREATE TABLE vela_jobs.job')
  })
})
