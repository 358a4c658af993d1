/**
 * Factories: defaults declared once per schema, sequence numbers for unique fields, overrides,
 * `build` (nothing stored) against `insert` / `insertMany` (rows stored), the app's own changeset
 * function with its validations, and the errors a misuse gives.
 */
import { describe, expect, it } from 'vitest'
import { cast } from '../../changeset.ts'
import { defineFactory, factory } from '../../factory.ts'
import { validateNumber } from '../../validations.ts'
import { defineSchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product } from '../schemas.ts'

const products = defineFactory(Product, (n) => ({ name: `Product ${n}`, price: 100 + n }))

/** A factory through the app's changeset function: a negative price is refused. */
const checked = defineFactory(Product, (n) => ({ name: `Checked ${n}`, price: 1 }), {
  changeset: (attrs) => validateNumber(cast(Product, null, attrs, ['name', 'price']), 'price', { greaterThan: 0 }),
})

export function factoryCases(t: SuiteContext): void {
  describe('factories', () => {
    it('insert stores the defaults with overrides on top, each with the next sequence number', async () => {
      const a = await products.insert(t.repo)
      const b = await products.insert(t.repo, { name: 'Tea', description: 'green' })
      const [c, d] = await products.insertMany(t.repo, 2, { price: 7 })
      expect(b).toMatchObject({ name: 'Tea', description: 'green', price: a.price + 1 })
      expect(c!.name).not.toBe(d!.name)
      const rows = (await t.adapter.query('select name, price, description from products order by id')).rows
      expect(rows).toEqual([
        { name: a.name, price: a.price, description: null },
        { name: 'Tea', price: a.price + 1, description: 'green' },
        { name: c!.name, price: 7, description: null },
        { name: d!.name, price: 7, description: null },
      ])
      expect(a.name).toMatch(/^Product \d+$/)
      // factory(schema, overrides): the registered factory's changeset, for repo.insert.
      const res = await t.repo.insert(factory(Product, { name: 'Mug' }))
      expect(res.ok && res.value.name).toBe('Mug')
      expect(await t.count('products')).toBe(5)
    })

    it('build makes the record without storing it; the app changeset validates; failures throw', async () => {
      const draft = checked.build({ price: 3 })
      expect(draft).toMatchObject({ price: 3 })
      expect(draft.name).toMatch(/^Checked \d+$/)
      expect(await t.count('products')).toBe(0)
      expect(() => checked.build({ price: -1 })).toThrow(
        'factory products: invalid: {"price":["must be greater than 0"]}',
      )
      await expect(checked.insert(t.repo, { price: 0 })).rejects.toThrow('factory products: insert failed: {"price":')
      const taken = await checked.insert(t.repo, { name: 'Same' })
      await expect(checked.insert(t.repo, { name: taken.name })).rejects.toThrow(
        'factory products: insert failed: {"name":["has already been taken"]}',
      )
      expect(await t.count('products')).toBe(1)
    })

    it('a schema without a factory, an unknown field and bad counts throw', async () => {
      const Lonely = defineSchema({ table: 'lonely', fields: { id: 'id', name: 'string' } })
      expect(() => factory(Lonely)).toThrow('factory: schema lonely has no factory; declare its defaults once')
      expect(() => products.build({ nope: 1 } as never)).toThrow('nope')
      await expect(products.insertMany(t.repo, -1)).rejects.toThrow('insertMany takes a whole number of records')
      expect(() => defineFactory(Lonely, {} as never)).toThrow('defineFactory lonely: give the defaults as a function')
    })
  })
}
