// Both adapters give the same value shapes and roll back on a throw: PGlite always, PostgreSQL
// where it answers (test/support/services.ts), in a fresh database dropped afterwards.
import { afterAll, describe, expect, it } from 'vitest'
import { freshPostgresDatabase, serviceAvailable } from '../../test/support/services.ts'
import type { Adapter } from './adapter.ts'
import { createPgAdapter } from './pg.ts'
import { createPgliteAdapter } from './pglite.ts'

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function sameShapes(open: () => Promise<Adapter>): void {
  it('returns the same value shapes and rolls back on a throw', async () => {
    const a = await open()
    cleanups.push(() => a.close())
    const r = await a.query('select $1::int8 as n, current_date as d', [5])
    expect(r.rows[0]).toEqual({ n: 5, d: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) })
    await expect(
      a.transaction(async (c) => {
        await c.query('create table zz_adapter_t(x int)')
        throw new Error('x')
      }),
    ).rejects.toThrow('x')
    expect((await a.query("select to_regclass('zz_adapter_t') as t")).rows[0]!.t).toBe(null)
  })
}

describe('PGlite adapter', () => sameShapes(() => createPgliteAdapter()))

describe.skipIf(!(await serviceAvailable('postgres')))('pg adapter (fresh database)', () => {
  sameShapes(async () => {
    const db = await freshPostgresDatabase('vela_adapters')
    cleanups.push(() => db.drop())
    return createPgAdapter({ url: db.url })
  })
})
