import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { from } from './query.ts'
import { defineRepo } from './repo.ts'
import { Product } from './test/schemas.ts'

describe('defineRepo', () => {
  it('picks PostgreSQL when a server is configured, embedded PGlite otherwise', () => {
    expect(defineRepo({ url: 'postgres://u@h/db' }).backend).toBe('pg')
    expect(defineRepo({ hostname: 'db.internal', database: 'app' }).backend).toBe('pg')
    expect(defineRepo({ adapter: 'pg', database: 'app' }).backend).toBe('pg')
    expect(defineRepo({}).backend).toBe('pglite')
    expect(defineRepo({ dataDir: '/tmp/x' }).backend).toBe('pglite')
  })

  it('a lost or refused connection rejects (infrastructure), it is not an error result', async () => {
    const repo = defineRepo({ url: 'postgres://postgres@127.0.0.1:1/nothing' })
    await expect(repo.all(from(Product))).rejects.toThrow(/ECONNREFUSED|connect/)
    await expect(repo.query('select 1')).rejects.toThrow(/ECONNREFUSED|connect/)
    await expect(repo.get(Product, 1)).rejects.toThrow(/ECONNREFUSED|connect/)
    await repo.stop()
  })

  it('PGlite with a dataDir keeps data across restarts; operations start the repo on demand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vela-dbl-'))
    try {
      const first = defineRepo({ dataDir: dir })
      expect((await first.query('create table kept (v text)')).ok).toBe(true)
      await first.query('insert into kept values ($1)', ['still here'])
      await first.stop()
      const second = defineRepo({ dataDir: dir })
      await second.start()
      expect(await second.query('select v from kept')).toMatchObject({ ok: true, value: { rows: [{ v: 'still here' }] } })
      await second.stop()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
