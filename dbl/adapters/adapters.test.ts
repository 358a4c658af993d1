import { test, expect } from 'vitest'
import { createPgAdapter } from './pg.ts'
import { createPgliteAdapter } from './pglite.ts'

test('pg and PGlite adapters return the same value shapes and roll back on a throw', async () => {
  for (const a of [createPgAdapter({ url: 'postgres://postgres@127.0.0.1:5432/test' }), await createPgliteAdapter()]) {
    const r = await a.query('select $1::int8 as n, current_date as d', [5])
    expect(r.rows[0]).toEqual({ n: 5, d: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) })
    await expect(a.transaction(async (c) => { await c.query('create table zz_adapter_t(x int)'); throw new Error('x') })).rejects.toThrow('x')
    expect((await a.query("select to_regclass('zz_adapter_t') as t")).rows[0]!.t).toBe(null)
    await a.close()
  }
})
