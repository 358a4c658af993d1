import { describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { checkConstraint, foreignKeyConstraint, noAssocConstraint, uniqueConstraint } from '../../constraints.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Post, Product, User } from '../schemas.ts'
import { productCs } from './read-write.ts'

const json = (e: unknown) => errorsToJson(e as Changeset)

export function constraintCases(t: SuiteContext): void {
  describe('database constraints', () => {
    it('a declared unique constraint becomes "has already been taken" on the field', async () => {
      await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      const r = await t.repo.insert(uniqueConstraint(productCs({ name: 'Tea', price: 2 }), 'name'))
      expect(r.ok).toBe(false)
      expect(!r.ok && json(r.error)).toEqual({ name: ['has already been taken'] })
      expect(!r.ok && (r.error as Changeset).action).toBe('insert')
      expect(await t.count('products')).toBe(1)
    })

    it('an inline UNIQUE (PostgreSQL names it <table>_<field>_key) matches the default declaration too', async () => {
      await t.adapter.query('create table if not exists tags_u (id bigserial primary key, label varchar(255) unique)')
      const { defineSchema } = await import('../../schema.ts')
      const Tag = defineSchema({ table: 'tags_u', fields: { id: 'id', label: 'string' } })
      await t.adapter.query('truncate tags_u')
      await t.repo.insert(cast(Tag, {}, { label: 'x' }, ['label']))
      const r = await t.repo.insert(uniqueConstraint(cast(Tag, {}, { label: 'x' }, ['label']), 'label'))
      expect(!r.ok && json(r.error)).toEqual({ label: ['has already been taken'] })
    })

    it('an undeclared violation is thrown as a DbError with the database details', async () => {
      // A unique constraint the schema does not declare (its own indexes need no declaration).
      await t.adapter.query('create table if not exists tags_u (id bigserial primary key, label varchar(255) unique)')
      const { defineSchema } = await import('../../schema.ts')
      const Tag = defineSchema({ table: 'tags_u', fields: { id: 'id', label: 'string' } })
      await t.adapter.query('truncate tags_u')
      await t.repo.insert(cast(Tag, {}, { label: 'x' }, ['label']))
      await expect(t.repo.insert(cast(Tag, {}, { label: 'x' }, ['label']))).rejects.toMatchObject({
        kind: 'db_error',
        code: '23505',
        constraintKind: 'unique',
        constraint: 'tags_u_label_key',
      })
      expect(await t.count('tags_u')).toBe(1)
    })

    it('a unique violation on update is a field error too, with a custom message', async () => {
      await t.repo.insert(productCs({ name: 'A', price: 1 }))
      const b = await t.repo.insert(productCs({ name: 'B', price: 1 }))
      if (!b.ok) throw new Error('insert failed')
      const cs = uniqueConstraint(cast(Product, b.value, { name: 'A' }, ['name']), 'name', { message: 'is taken' })
      const r = await t.repo.update(cs)
      expect(!r.ok && json(r.error)).toEqual({ name: ['is taken'] })
      expect(!r.ok && (r.error as Changeset).action).toBe('update')
    })

    it('foreign key: "does not exist"; check: "is invalid"; NOT NULL: "can\'t be blank"', async () => {
      const fk = await t.repo.insert(
        foreignKeyConstraint(cast(Post, {}, { title: 'Hello', user_id: 999 }, ['title', 'user_id']), 'user_id'),
      )
      expect(!fk.ok && json(fk.error)).toEqual({ user_id: ['does not exist'] })
      const check = await t.repo.insert(
        checkConstraint(cast(Post, {}, { title: 'x' }, ['title']), 'title', { name: 'posts_title_check' }),
      )
      expect(!check.ok && json(check.error)).toEqual({ title: ['is invalid'] })
      const notNull = await t.repo.insert(change(Product, {}, { price: 3 }))
      expect(!notNull.ok && json(notNull.error)).toEqual({ name: ["can't be blank"] })
      const fkUndeclared = t.repo.insert(cast(Post, {}, { title: 'Hello', user_id: 999 }, ['title', 'user_id']))
      await expect(fkUndeclared).rejects.toMatchObject({ code: '23503', constraint: 'posts_user_id_fkey' })
      expect(await t.count('posts')).toBe(0)
      expect(await t.count('products')).toBe(0)
    })

    it('noAssocConstraint: deleting a parent still referenced', async () => {
      const u = await t.repo.insert(cast(User, {}, { name: 'Ann', email: 'a@x.io' }, ['name', 'email']))
      if (!u.ok) throw new Error('insert failed')
      await t.repo.insert(cast(Post, {}, { title: 'Hello', user_id: u.value.id }, ['title', 'user_id']))
      const r = await t.repo.delete(noAssocConstraint(change(User, u.value), 'posts'))
      expect(!r.ok && json(r.error)).toEqual({ posts: ['are still associated with this entry'] })
      expect(await t.count('users')).toBe(1)
    })
  })
}
