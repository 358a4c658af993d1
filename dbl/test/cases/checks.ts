/**
 * CHECK constraints, partial unique indexes and ON UPDATE as the migration generator makes them
 * from a schema, seen through the repository: the tables are created by the generated operations,
 * so what the repository maps (constraint names, the field each error goes on) is checked against
 * what a generated migration really holds.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cast, errorsToJson, type Changeset } from '../../changeset.ts'
import { checkConstraint } from '../../constraints.ts'
import { operationsSql } from '../../migrations/ddl.ts'
import { planMigration } from '../../migrations/diff.ts'
import { modelFromSchemas } from '../../migrations/model.ts'
import { field, sql } from '../../query/fragment.ts'
import { from } from '../../query/builder.ts'
import { belongsTo, defineSchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'

const Product = defineSchema({
  table: 'ck_products',
  fields: { id: 'id', name: 'string', price: 'integer', sku: 'string', deleted_at: 'utc_datetime' },
  checks: [
    { name: 'ck_products_price_positive', check: 'price > 0' },
    {
      name: 'ck_products_sku_upper',
      check: sql`${field('sku')} = upper(${field('sku')})`,
      message: 'must be upper case',
    },
  ],
  indexes: [{ columns: ['sku'], unique: true, where: 'deleted_at IS NULL' }],
})
const Owner = defineSchema({ table: 'ck_owners', fields: { id: 'id', name: 'string' } })
const Item = defineSchema({
  table: 'ck_items',
  fields: { id: 'id', owner_id: 'integer' },
  associations: { owner: belongsTo(() => Owner, { onUpdate: 'cascade' }) },
})

const json = (e: unknown) => errorsToJson(e as Changeset)
const productCs = (params: Record<string, unknown>) => cast(Product, {}, params, ['name', 'price', 'sku', 'deleted_at'])

export function checkCases(t: SuiteContext): void {
  describe('checks, partial unique indexes and ON UPDATE generated from schemas', () => {
    beforeAll(async () => {
      await t.adapter.query('DROP TABLE IF EXISTS ck_items, ck_owners, ck_products')
      for (const statement of operationsSql(planMigration(new Map(), modelFromSchemas([Product, Owner, Item])).up))
        await t.adapter.query(statement)
    })
    beforeEach(async () => {
      await t.adapter.query('TRUNCATE ck_items, ck_owners, ck_products RESTART IDENTITY')
    })

    it('a row breaking a schema check is refused with "is invalid" (or its message) on the field, on insert and update', async () => {
      const zero = await t.repo.insert(productCs({ name: 'Tea', price: 0, sku: 'TEA' }))
      expect(!zero.ok && json(zero.error)).toEqual({ price: ['is invalid'] })
      expect(!zero.ok && (zero.error as Changeset).errors[0]).toMatchObject({
        meta: { constraint: 'check', constraint_name: 'ck_products_price_positive' },
      })
      const lower = await t.repo.insert(productCs({ name: 'Tea', price: 3, sku: 'tea' }))
      expect(!lower.ok && json(lower.error)).toEqual({ sku: ['must be upper case'] })
      expect(await t.count('ck_products')).toBe(0)
      const tea = await t.repo.insert(productCs({ name: 'Tea', price: 3, sku: 'TEA' }))
      if (!tea.ok) throw new Error('insert failed')
      const update = await t.repo.update(cast(Product, tea.value, { price: -1 }, ['price']))
      expect(!update.ok && json(update.error)).toEqual({ price: ['is invalid'] })
      expect((await t.repo.all(from(Product))).map((p) => p.price)).toEqual([3])
    })

    it('checkConstraint on the changeset wins over the schema: its field and message', async () => {
      const cs = checkConstraint(productCs({ name: 'Tea', price: 0 }), 'name', {
        name: 'ck_products_price_positive',
        message: 'cannot be given away',
      })
      const r = await t.repo.insert(cs)
      expect(!r.ok && json(r.error)).toEqual({ name: ['cannot be given away'] })
    })

    it('a check only a hand-written migration adds is a DbError until checkConstraint declares it', async () => {
      await t.adapter.query("ALTER TABLE ck_products ADD CONSTRAINT ck_products_name_set CHECK (name <> 'nameless')")
      try {
        await expect(t.repo.insert(productCs({ name: 'nameless', price: 1 }))).rejects.toMatchObject({
          kind: 'db_error',
          code: '23514',
          constraintKind: 'check',
          constraint: 'ck_products_name_set',
        })
        const declared = checkConstraint(productCs({ name: 'nameless', price: 1 }), 'name', {
          name: 'ck_products_name_set',
        })
        const r = await t.repo.insert(declared)
        expect(!r.ok && json(r.error)).toEqual({ name: ['is invalid'] })
      } finally {
        await t.adapter.query('ALTER TABLE ck_products DROP CONSTRAINT ck_products_name_set')
      }
    })

    it('a partial unique index: duplicates outside its predicate pass, one inside is "has already been taken"', async () => {
      const deleted = new Date('2024-01-01T00:00:00Z')
      for (const params of [
        { name: 'Old tea', price: 1, sku: 'TEA', deleted_at: deleted },
        { name: 'Older tea', price: 1, sku: 'TEA', deleted_at: deleted },
        { name: 'Tea', price: 2, sku: 'TEA' },
      ]) {
        const r = await t.repo.insert(productCs(params))
        expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true)
      }
      const again = await t.repo.insert(productCs({ name: 'Tea again', price: 2, sku: 'TEA' }))
      expect(!again.ok && json(again.error)).toEqual({ sku: ['has already been taken'] })
      expect(await t.count('ck_products')).toBe(3)
    })

    it('ON UPDATE cascade: a changed key is carried into the rows referencing it', async () => {
      const owner = await t.repo.insert(cast(Owner, {}, { name: 'Ann' }, ['name']))
      if (!owner.ok) throw new Error('insert failed')
      await t.repo.insert(cast(Item, {}, { owner_id: owner.value.id }, ['owner_id']))
      const moved = await t.repo.update(cast(Owner, owner.value, { id: 42 }, ['id']))
      expect(moved.ok).toBe(true)
      expect((await t.repo.all(from(Item))).map((i) => i.owner_id)).toEqual([42])
    })
  })
}
