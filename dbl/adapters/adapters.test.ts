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
  const open = async (opts: { poolSize?: number; acquireTimeoutMs?: number } = {}) => {
    const db = await freshPostgresDatabase('vela_adapters')
    cleanups.push(() => db.drop())
    return createPgAdapter({ url: db.url, ...opts })
  }
  sameShapes(() => open())

  it('every statement gives its connection back, answered or failed: a pool of one serves each in turn', async () => {
    const a = await open({ poolSize: 1, acquireTimeoutMs: 10_000 })
    cleanups.push(() => a.close())
    // The server refuses it; the driver refuses it before sending; then the connection still serves.
    await expect(a.query('select nope')).rejects.toMatchObject({ code: '42703' })
    await expect(a.query(undefined as unknown as string)).rejects.toThrow(TypeError)
    expect((await a.query('select 1 as one')).rows).toEqual([{ one: 1 }])
    expect(await a.transaction(async (c) => (await c.query('select 2 as two')).rows)).toEqual([{ two: 2 }])
    // Twenty at once on the one connection: each waits its turn, none is lost.
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a.query<{ n: number }>('select $1::int as n', [i])),
    )
    expect(many.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i))
  })
})
