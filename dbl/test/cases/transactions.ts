import { describe, expect, expectTypeOf, it } from 'vitest'
import { cast, errorsToJson, type Changeset } from '../../changeset.ts'
import { newMulti } from '../../multi.ts'
import { err, ok, type Err, type Ok } from '../../result.ts'
import type { SuiteContext } from '../suite-context.ts'
import { from } from '../../query/builder.ts'
import type { RecordOf } from '../../schema.ts'
import { Post, Product, User } from '../schemas.ts'
import { productCs } from './read-write.ts'

const userCs = (name: string, email: string) => cast(User, {}, { name, email }, ['name', 'email'])

export function transactionCases(t: SuiteContext): void {
  describe('transactions', () => {
    it('commits and wraps the function value', async () => {
      const r = await t.repo.transaction(async (repo) => {
        await repo.insert(productCs({ name: 'A', price: 1 }))
        await t.repo.insert(productCs({ name: 'B', price: 1 }))
        return 'done'
      })
      expect(r).toEqual({ ok: true, value: 'done' })
      expectTypeOf(r).toEqualTypeOf<Ok<string> | Err<unknown>>()
      expect(await t.count('products')).toBe(2)
    })

    it('types value as what the function returns: a read, a write result, a plain value', async () => {
      await t.repo.insert(productCs({ name: 'A', price: 1 }))
      const rows = await t.repo.transaction(() => t.repo.all(from(Product).orderBy('id')))
      expectTypeOf(rows).toEqualTypeOf<Ok<RecordOf<typeof Product>[]> | Err<unknown>>()
      expect(rows.ok && rows.value.map((p) => p.name)).toEqual(['A'])
      const found = await t.repo.transaction(async (repo) => repo.get(Product, 1))
      expectTypeOf(found).toEqualTypeOf<Ok<RecordOf<typeof Product> | undefined> | Err<unknown>>()
      expect(found.ok && found.value?.name).toBe('A')
      const written = await t.repo.transaction(async () => {
        const b = await t.repo.insert(productCs({ name: 'B', price: 2 }))
        if (!b.ok) return t.repo.rollback(b.error)
        return { id: b.value.id, total: await t.repo.count(from(Product)) }
      })
      expectTypeOf(written).toEqualTypeOf<Ok<{ id: number; total: number }> | Err<unknown>>()
      expect(written).toEqual({ ok: true, value: { id: 2, total: 2 } })
      const insert = await t.repo.transaction(() => t.repo.insert(productCs({ name: 'C', price: 3 })))
      // A write's result passes through: its value is the record, not `unknown`.
      if (!insert.ok) throw new Error('insert failed')
      expectTypeOf(insert.value).toEqualTypeOf<RecordOf<typeof Product>>()
      expect(insert.value.name).toBe('C')
    })

    it('afterCommit runs once the transaction has committed, never after a rollback', async () => {
      const ran: string[] = []
      t.repo.afterCommit(() => ran.push('outside'))
      expect(ran).toEqual(['outside'])
      await t.repo.transaction(async () => {
        await t.repo.insert(productCs({ name: 'A', price: 1 }))
        t.repo.afterCommit(() => ran.push(`committed with ${ran.length} before`))
        await t.repo.transaction(async () => t.repo.afterCommit(() => ran.push('nested')))
        expect(ran).toEqual(['outside'])
      })
      expect(ran).toEqual(['outside', 'committed with 1 before', 'nested'])
      await t.repo.transaction(async () => {
        t.repo.afterCommit(() => ran.push('rolled back'))
        t.repo.rollback('no')
      })
      await expect(
        t.repo.transaction(async () => {
          t.repo.afterCommit(() => ran.push('thrown'))
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      // A nested rollback taints the outer transaction: it rolls back, and nothing runs.
      await t.repo.transaction(async () => {
        t.repo.afterCommit(() => ran.push('tainted'))
        await t.repo.transaction(async () => t.repo.rollback('inner'))
      })
      expect(ran).toEqual(['outside', 'committed with 1 before', 'nested'])
      expect(await t.count('products')).toBe(1)
    })

    it('a thrown error rolls everything back and is rethrown', async () => {
      await expect(
        t.repo.transaction(async () => {
          await t.repo.insert(productCs({ name: 'A', price: 1 }))
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await t.count('products')).toBe(0)
    })

    it('repo.rollback(value) rolls back and returns { ok: false, error: value }', async () => {
      const r = await t.repo.transaction(async () => {
        await t.repo.insert(productCs({ name: 'A', price: 1 }))
        await t.repo.insert(productCs({ name: 'B', price: 1 }))
        return t.repo.rollback('changed my mind')
      })
      expect(r).toEqual({ ok: false, error: 'changed my mind' })
      expect(await t.count('products')).toBe(0)
      expect(() => t.repo.rollback('x')).toThrow('outside a transaction')
    })

    it('a returned failed result rolls back and is returned as is; a returned ok result passes through', async () => {
      const r = await t.repo.transaction(async () => {
        await t.repo.insert(productCs({ name: 'A', price: 1 }))
        return t.repo.insert(productCs({ name: '', price: 1 }))
      })
      expect(r.ok).toBe(false)
      expect(!r.ok && errorsToJson(r.error as Changeset)).toEqual({ name: ["can't be blank"] })
      expect(await t.count('products')).toBe(0)
      expect(await t.repo.transaction(async () => ok(5))).toEqual({ ok: true, value: 5 })
    })

    it('a database error inside is thrown and rolls back the earlier writes', async () => {
      const r = t.repo.transaction(async () => {
        await t.repo.insert(productCs({ name: 'A', price: 1 }))
        return t.repo.insert(cast(Post, {}, { title: 'Hello', user_id: 999 }, ['title', 'user_id']))
      })
      await expect(r).rejects.toMatchObject({ kind: 'db_error', code: '23503' })
      expect(await t.count('products')).toBe(0)
    })

    it('nested calls reuse the outer transaction; a nested rollback fails the outer one', async () => {
      const r = await t.repo.transaction(async () => {
        await t.repo.insert(productCs({ name: 'A', price: 1 }))
        const inner = await t.repo.transaction(async () => {
          await t.repo.insert(productCs({ name: 'B', price: 1 }))
          return t.repo.rollback('inner')
        })
        expect(inner).toEqual({ ok: false, error: 'inner' })
        return 'outer finished'
      })
      expect(r).toEqual({ ok: false, error: 'inner' })
      expect(await t.count('products')).toBe(0)
      const fine = await t.repo.transaction(() =>
        t.repo.transaction(async () => t.repo.insert(productCs({ name: 'C', price: 1 }))),
      )
      expect(fine.ok).toBe(true)
      expect(await t.count('products')).toBe(1)
    })
  })

  describe('multi', () => {
    const base = () =>
      newMulti()
        .insert('user', userCs('Ann', 'ann@x.io'))
        .insert('post', ({ user }) => cast(Post, {}, { title: 'Hello', user_id: user.id }, ['title', 'user_id']))

    it('runs named steps in order; later steps see earlier values', async () => {
      const r = await t.repo.multi(base().run('check', async (_repo, { post }) => ok(post.title.length)))
      expect(r.ok).toBe(true)
      if (!r.ok) return
      expect(r.value.post.user_id).toBe(r.value.user.id)
      expect(r.value.check).toBe(5)
      expect(await t.count('posts')).toBe(1)
    })

    it('the first failure names its step, carries the error and rolls back completed steps', async () => {
      const r = await t.repo.multi(
        base()
          .insert('second', userCs('', 'b@x.io'))
          .run('never', async () => ok(1)),
      )
      expect(r.ok).toBe(false)
      if (r.ok) return
      expect(r.error.step).toBe('second')
      expect(errorsToJson(r.error.error as Changeset)).toEqual({ name: ["can't be blank"] })
      expect(Object.keys(r.error.completed)).toEqual(['user', 'post'])
      expect(await t.count('users')).toBe(0)
      expect(await t.count('posts')).toBe(0)
      const dup = await t.repo.multi(base().insert('again', userCs('Bob', 'ann@x.io')))
      // The schema's unique index on email: a field error, with no declaration.
      expect(dup).toMatchObject({
        ok: false,
        error: {
          step: 'again',
          error: { kind: 'vela.changeset', errors: [{ field: 'email', message: 'has already been taken' }] },
        },
      })
      const run = await t.repo.multi(base().run('custom', async () => err('nope')))
      expect(run).toMatchObject({ ok: false, error: { step: 'custom', error: 'nope' } })
      expect(await t.count('users')).toBe(0)
    })

    it('rejects duplicate step names when built', () => {
      expect(() => base().insert('user', userCs('x', 'y'))).toThrow('a step named "user" already exists')
    })
  })
}
