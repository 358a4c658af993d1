import { describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { from } from '../../query/builder.ts'
import { orderBy, where } from '../../query/operators.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product, Thing, User } from '../schemas.ts'
import { productCs } from './read-write.ts'

const json = (e: unknown) => errorsToJson(e as Changeset)
const nasty = ["'; DROP TABLE products; --", 'O\'Brien "quoted"', 'back\\slash\\', '$1 $2 ?', '%_\\%', 'ünïcødé 🚀']

export function badInputCases(t: SuiteContext): void {
  describe('bad input', () => {
    it('SQL metacharacters in values are stored and matched verbatim', async () => {
      for (const [i, name] of nasty.entries()) {
        const r = await t.repo.insert(productCs({ name, price: i, description: name }))
        expect(r.ok && r.value.name).toBe(name)
      }
      for (const name of nasty) {
        expect(await t.repo.getBy(Product, { name })).toBeDefined()
        expect(await t.repo.all(where(from(Product), 'description', '=', name))).toMatchObject([{ name }])
      }
      // LIKE patterns are parameters too: the quote cannot end the string.
      expect(await t.repo.all(where(from(Product), 'name', 'like', "%'; DROP%"))).toMatchObject([{ name: nasty[0] }])
      expect(await t.repo.all(where(from(Product), 'name', 'ilike', "x' or '1'='1"))).toEqual([])
      // A list parameter (IN) is one PostgreSQL array: its quoting is the driver's, and must hold too.
      const listed = await t.repo.all(orderBy(where(from(Product), 'name', 'in', nasty), 'price'))
      expect(listed.map((p) => p.name)).toEqual(nasty)
      expect(await t.repo.query('select $1::text as v', [nasty[0]])).toMatchObject({
        ok: true,
        value: { rows: [{ v: nasty[0] }] },
      })
      expect(await t.count('products')).toBe(nasty.length)
    })

    it('field names are never taken from input: unknown ones are ignored by cast and rejected by queries', async () => {
      const cs = cast(
        Product,
        {},
        { name: 'A', price: 1, id: 77, 'name"; drop table products; --': 'x', __proto__: { price: 9 } },
        ['name', 'price'],
      )
      expect(cs.changes).toEqual({ name: 'A', price: 1 })
      const r = await t.repo.insert(cs)
      expect(r.ok && r.value.id).toBe(1)
      expect(() => where(from(Product), { "name\" = '' or 1=1; --": 1 } as never)).toThrow('has no field')
      expect(() => orderBy(from(Product), ['price desc; drop table products' as never, 'asc'])).toThrow('has no field')
      await expect(t.repo.getBy(Product, { 'id; drop table products': 1 } as never)).rejects.toThrow('has no field')
      expect(() => cast(Product, {}, {}, ['nope' as never])).toThrow('has no field "nope"')
      expect(await t.count('products')).toBe(1)
    })

    it('NUL bytes: a cast error, or a DbError thrown through paths that skip casting', async () => {
      expect(json(cast(Product, {}, { name: 'a\u0000b', price: 1 }, ['name', 'price']))).toEqual({
        name: ['is invalid'],
      })
      const direct = t.repo.insert(change(Product, {}, { name: 'a\u0000b', price: 1 }))
      await expect(direct).rejects.toMatchObject({ kind: 'db_error', code: expect.stringMatching(/^22/), status: 400 })
      await expect(t.repo.all(where(from(Product), 'name', '=', 'x\u0000'))).rejects.toMatchObject({ kind: 'db_error' })
      expect(await t.repo.getBy(Product, { name: 'x\u0000' })).toBeUndefined()
      expect(json(cast(Thing, {}, { meta: { a: 'x\u0000' } }, ['meta']))).toEqual({ meta: ['is invalid'] })
      expect(await t.count('products')).toBe(0)
    })

    it('values of the wrong type are "is invalid" and never reach the database', async () => {
      const params = {
        count: 'twelve',
        ratio: 'NaN',
        active: 'yes',
        happened_at: 'yesterday',
        day: '2023-02-29',
        ref: 'not-a-uuid',
        meta: () => 1,
        tags: 'a,b',
        scores: ['1', 'x'],
        status: 'deleted',
      }
      const cs = cast(Thing, {}, params, Object.keys(params) as never)
      expect(json(cs)).toEqual(Object.fromEntries(Object.keys(params).map((k) => [k, ['is invalid']])))
      expect(json(cast(Product, {}, { price: '99999999999', name: 5 }, ['name', 'price']))).toEqual({
        name: ['is invalid'],
        price: ['is invalid'],
      })
      expect(
        json(
          cast(Thing, {}, { day: '2024-13-01', happened_at: '2024-02-30T10:00:00Z', count: 1.5 }, [
            'day',
            'happened_at',
            'count',
          ]),
        ),
      ).toEqual({
        day: ['is invalid'],
        happened_at: ['is invalid'],
        count: ['is invalid'],
      })
      expect((await t.repo.insert(cs)).ok).toBe(false)
      expect(await t.count('things')).toBe(0)
      expect(await t.repo.get(Product, '1; DROP TABLE products')).toBeUndefined()
      expect(await t.repo.get(Thing, { id: 1 })).toBeUndefined()
    })

    it('invalid UUIDs and dates that skip casting are thrown as clean errors, with no row written', async () => {
      await expect(t.repo.insert(change(Thing, {}, { ref: 'not-a-uuid' }))).rejects.toMatchObject({ code: '22P02' })
      await expect(t.repo.insert(change(Thing, {}, { day: '2023-02-30' }))).rejects.toMatchObject({ kind: 'db_error' })
      await expect(t.repo.all(where(from(Thing), { ref: 'nope' }))).rejects.toMatchObject({ code: '22P02' })
      expect(await t.count('things')).toBe(0)
    })

    it('oversized strings are a changeset error before the database, counted in characters', async () => {
      const long = 'x'.repeat(256)
      expect(json(productCs({ name: long, price: 1 }))).toEqual({ name: ['should be at most 255 character(s)'] })
      expect(json(cast(User, {}, { name: 'A', email: 'e'.repeat(121) }, ['name', 'email']))).toEqual({
        email: ['should be at most 120 character(s)'],
      })
      const bypass = await t.repo.insert(change(Product, {}, { name: long, price: 1 }))
      expect(!bypass.ok && json(bypass.error)).toEqual({ name: ['should be at most 255 character(s)'] })
      // 255 astral characters are 510 UTF-16 units but fit VARCHAR(255).
      const emoji = '🚀'.repeat(255)
      const fits = await t.repo.insert(productCs({ name: emoji, price: 1 }))
      expect(fits.ok && fits.value.name).toBe(emoji)
      expect(json(productCs({ name: emoji + '🚀', price: 1 }))).toEqual({
        name: ['should be at most 255 character(s)'],
      })
      expect(await t.count('products')).toBe(1)
    })
  })
}
