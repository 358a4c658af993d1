/**
 * `insert(cs, { onConflict: { target?, action: 'nothing' } })`: INSERT … ON CONFLICT DO NOTHING.
 * A skipped row is `ok(null)`; the row already there is left exactly as it was.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { putAssoc } from '../../assoc.ts'
import { cast } from '../../changeset.ts'
import { defineRepo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import type { MaybeInsertResult, WriteResult } from '../../repo/write.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Post, type Product, User } from '../schemas.ts'
import { productCs } from './read-write.ts'

const stored = async (t: SuiteContext) =>
  (await t.adapter.query('select id, name, price, description, updated_at from products order by id')).rows

export function onConflictCases(t: SuiteContext): void {
  describe('insert onConflict: do nothing', () => {
    it('a conflict over the target inserts nothing, changes nothing, and gives ok(null)', async () => {
      const first = await t.repo.insert(productCs({ name: 'Tea', price: 1, description: 'green' }))
      expect(first.ok).toBe(true)
      const before = await stored(t)
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const r = await repo.insert(productCs({ name: 'Tea', price: 9, description: 'black' }), {
        onConflict: { target: ['name'], action: 'nothing' },
      })
      expect(r).toEqual({ ok: true, value: null })
      expect(events.map((e) => e.query)).toEqual([expect.stringContaining('on conflict ("name") do nothing returning')])
      expect(await stored(t)).toEqual(before)
      // Types: only the "nothing" form can give null, so only it says so.
      expectTypeOf(r).toEqualTypeOf<MaybeInsertResult<typeof Product>>()
      expectTypeOf(first).toEqualTypeOf<WriteResult<typeof Product>>()
    })

    it('without a conflict the row is inserted and returned as usual', async () => {
      const r = await t.repo.insert(productCs({ name: 'Tea', price: 1 }), {
        onConflict: { target: ['name'], action: 'nothing' },
      })
      expect(r).toEqual({
        ok: true,
        value: {
          id: 1,
          name: 'Tea',
          price: 1,
          description: null,
          inserted_at: expect.any(Date),
          updated_at: expect.any(Date),
        },
      })
      expect(await t.count('products')).toBe(1)
    })

    it('without a target any unique conflict is skipped; other violations are still thrown', async () => {
      await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      expect(await t.repo.insert(productCs({ name: 'Tea', price: 2 }), { onConflict: { action: 'nothing' } })).toEqual({
        ok: true,
        value: null,
      })
      expect(await t.count('products')).toBe(1)
      // posts_title_check is a CHECK constraint, not a conflict: DO NOTHING does not cover it.
      const bad = t.repo.insert(cast(Post, {}, { title: 'x' }, ['title']), {
        onConflict: { target: ['id'], action: 'nothing' },
      })
      await expect(bad).rejects.toMatchObject({ kind: 'db_error', code: '23514' })
    })

    it('a skipped parent inserts none of its children', async () => {
      const ann = () => cast(User, {}, { name: 'Ann', email: 'ann@x.io' }, ['name', 'email'])
      expect((await t.repo.insert(ann())).ok).toBe(true)
      const r = await t.repo.insert(putAssoc(ann(), 'posts', [{ title: 'Hello' }]), {
        onConflict: { target: ['email'], action: 'nothing' },
      })
      expect(r).toEqual({ ok: true, value: null })
      expect(await t.count('users')).toBe(1)
      expect(await t.count('posts')).toBe(0)
    })

    it('the upsert form still updates; a malformed option throws before any query', async () => {
      await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      const up = await t.repo.insert(productCs({ name: 'Tea', price: 5 }), {
        onConflict: { target: ['name'], replace: ['price'] },
      })
      expect(up.ok && up.value.price).toBe(5)
      const tea = productCs({ name: 'Tea', price: 6 })
      // @ts-expect-error -- 'nothing' is the only action
      const malformed = t.repo.insert(tea, { onConflict: { target: ['name'], action: 'ignore' } })
      await expect(malformed).rejects.toThrow(
        "insert onConflict: give { target, replace } or { target?, action: 'nothing' }",
      )
      expect((await stored(t)).map((r) => r.price)).toEqual([5])
    })
  })
}
