import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { from } from './query/builder.ts'
import { defineRepo, embeddedDataDir } from './repo.ts'
import { Product } from './test/schemas.ts'

describe('defineRepo', () => {
  it('picks PostgreSQL when a server is configured, embedded PGlite otherwise', () => {
    expect(defineRepo({ url: 'postgres://u@h/db' }).backend).toBe('pg')
    expect(defineRepo({ hostname: 'db.internal', database: 'app' }).backend).toBe('pg')
    expect(defineRepo({ adapter: 'pg', database: 'app' }).backend).toBe('pg')
    expect(defineRepo({}).backend).toBe('pglite')
    expect(defineRepo({ dataDir: '/tmp/x' }).backend).toBe('pglite')
    expect(defineRepo({ url: 'memory:' }).backend).toBe('pglite')
    expect(defineRepo({ url: '' }).backend).toBe('pglite')
  })

  it('embedded PGlite keeps its data in <cwd>/.data/pglite, in memory when asked or under tests, in dataDir when given', () => {
    const app = join('/srv', 'app')
    expect(embeddedDataDir({}, {}, app)).toBe(join(app, '.data', 'pglite'))
    expect(embeddedDataDir({ url: '' }, {}, app)).toBe(join(app, '.data', 'pglite'))
    expect(embeddedDataDir({ url: 'memory:' }, {}, app)).toBeUndefined()
    expect(embeddedDataDir({}, { VELA_ENV: 'test' }, app)).toBeUndefined()
    expect(embeddedDataDir({}, { VITEST: 'true' }, app)).toBeUndefined()
    expect(embeddedDataDir({}, { VELA_ENV: 'prod' }, app)).toBe(join(app, '.data', 'pglite'))
    expect(embeddedDataDir({ dataDir: '/var/lib/app' }, { VITEST: 'true' }, app)).toBe('/var/lib/app')
  })

  it('under vitest, a repo without a URL is a fresh in-memory database: nothing written under .data', async () => {
    const first = defineRepo({})
    expect((await first.query('create table mine (v text)')).ok).toBe(true)
    await first.stop()
    const second = defineRepo({})
    expect(await second.query('select v from mine')).toMatchObject({ ok: false, error: { code: '42P01' } })
    await second.stop()
    expect(existsSync(join(process.cwd(), '.data', 'pglite'))).toBe(false)
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
      expect(await second.query('select v from kept')).toMatchObject({
        ok: true,
        value: { rows: [{ v: 'still here' }] },
      })
      await second.stop()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
