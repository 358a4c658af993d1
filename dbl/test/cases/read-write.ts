import { describe, expect, expectTypeOf, it } from 'vitest'
import { cast, change, errorsToJson } from '../../changeset.ts'
import { limit, orderBy, select, where } from '../../query/operators.ts'
import { from } from '../../query/builder.ts'
import type { RecordOf } from '../../schema.ts'
import { validateRequired } from '../../validations.ts'
import { MultipleResultsError } from '../../multiple-results-error.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product, Thing } from '../schemas.ts'

export const productCs = (params: Record<string, unknown>) =>
  validateRequired(cast(Product, {}, params, ['name', 'price', 'description']), ['name', 'price'])

export function readWriteCases(t: SuiteContext): void {
  describe('reads and writes', () => {
    it('insert returns the full row with a numeric id and automatic timestamps', async () => {
      const before = Date.now()
      const r = await t.repo.insert(productCs({ name: 'Tea', price: '250' }))
      if (!r.ok) throw new Error('insert failed')
      expect(r.value).toEqual({
        id: 1,
        name: 'Tea',
        price: 250,
        description: null,
        inserted_at: expect.any(Date),
        updated_at: expect.any(Date),
      })
      expect(r.value.inserted_at!.getTime()).toBeGreaterThanOrEqual(before - 1000)
      expect(r.value.updated_at!.getTime()).toBe(r.value.inserted_at!.getTime())
      expect(await t.count('products')).toBe(1)
    })

    it('an invalid changeset is returned without touching the database', async () => {
      const r = await t.repo.insert(productCs({ name: '' }))
      expect(r.ok).toBe(false)
      if (r.ok) return
      expect(errorsToJson(r.error as never)).toEqual({ name: ["can't be blank"], price: ["can't be blank"] })
      expect(await t.count('products')).toBe(0)
    })

    it('get returns the record or undefined, typed', async () => {
      const ins = await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      const r = await t.repo.get(Product, 1)
      expectTypeOf(r).toEqualTypeOf<RecordOf<typeof Product> | undefined>()
      expectTypeOf<RecordOf<typeof Product>>().toEqualTypeOf<{
        readonly id: number
        readonly name: string
        readonly price: number
        readonly description: string | null
        readonly inserted_at: Date | null
        readonly updated_at: Date | null
      }>()
      expect(r).toEqual(ins.ok && ins.value)
      expect(await t.repo.get(Product, 2)).toBeUndefined()
      expect(await t.repo.get(Product, '1')).toEqual(r)
      expect(await t.repo.get(Product, 'abc')).toBeUndefined()
    })

    it('getBy matches every clause, null meaning IS NULL', async () => {
      await t.repo.insertAll(Product, [
        { name: 'A', price: 1 },
        { name: 'B', price: 2, description: 'x' },
      ])
      const r = await t.repo.getBy(Product, { price: 2, description: 'x' })
      expect(r?.name).toBe('B')
      expect((await t.repo.getBy(Product, { description: null }))?.name).toBe('A')
      expect(await t.repo.getBy(Product, { name: 'C' })).toBeUndefined()
    })

    it('all, one, select and count follow the query', async () => {
      await t.repo.insertAll(
        Product,
        [1, 2, 3, 4].map((i) => ({ name: `P${i}`, price: i * 10 })),
      )
      const q = where(from(Product), 'price', '>=', 20)
      const rows = await t.repo.all(limit(orderBy(q, ['price', 'desc']), 2))
      expectTypeOf(rows).toEqualTypeOf<RecordOf<typeof Product>[]>()
      expect(rows.map((p) => p.name)).toEqual(['P4', 'P3'])
      const names = await t.repo.all(select(orderBy(q, 'id'), ['name']))
      expectTypeOf(names).toEqualTypeOf<{ readonly name: string }[]>()
      expect(names).toEqual([{ name: 'P2' }, { name: 'P3' }, { name: 'P4' }])
      expect(await t.repo.count(q)).toBe(3)
      expect(await t.repo.one(where(from(Product), { name: 'P1' }))).toMatchObject({ price: 10 })
      expect(await t.repo.one(where(from(Product), { name: 'none' }))).toBeUndefined()
      await expect(t.repo.one(q)).rejects.toBeInstanceOf(MultipleResultsError)
      await expect(t.repo.one(q)).rejects.toMatchObject({ table: 'products', status: 500 })
      expect(await t.repo.all(where(from(Product), { id: [1, 3] }))).toMatchObject([{ name: 'P1' }, { name: 'P3' }])
    })

    it('update writes only the changes and refreshes updated_at; no changes, no query', async () => {
      const ins = await t.repo.insert(productCs({ name: 'Tea', price: 1 }))
      if (!ins.ok) throw new Error('insert failed')
      await new Promise((r) => setTimeout(r, 5))
      const up = await t.repo.update(cast(Product, ins.value, { price: '5', name: 'Tea' }, ['name', 'price']))
      if (!up.ok) throw new Error('update failed')
      expect(up.value).toMatchObject({ id: 1, name: 'Tea', price: 5, inserted_at: ins.value.inserted_at })
      expect(up.value.updated_at!.getTime()).toBeGreaterThan(ins.value.updated_at!.getTime())
      expect(await t.repo.update(cast(Product, up.value, { price: 5 }, ['price']))).toEqual({
        ok: true,
        value: up.value,
      })
    })

    it('update and delete of a row that is gone give "is stale" on the primary key', async () => {
      const ghost = { id: 99, name: 'x', price: 1, description: null, inserted_at: null, updated_at: null }
      const up = await t.repo.update(change(Product, ghost, { price: 2 }))
      expect(!up.ok && errorsToJson(up.error as never)).toEqual({ id: ['is stale'] })
      const del = await t.repo.delete(Product, ghost)
      expect(!del.ok && errorsToJson(del.error as never)).toEqual({ id: ['is stale'] })
    })

    it('delete takes a changeset or a schema and record, and returns the deleted row', async () => {
      const a = await t.repo.insert(productCs({ name: 'A', price: 1 }))
      const b = await t.repo.insert(productCs({ name: 'B', price: 1 }))
      if (!a.ok || !b.ok) throw new Error('insert failed')
      expect(await t.repo.delete(change(Product, a.value))).toEqual({ ok: true, value: a.value })
      expect(await t.repo.delete(Product, b.value)).toEqual({ ok: true, value: b.value })
      expect(await t.count('products')).toBe(0)
    })

    it('insertAll, updateAll and deleteAll report counts', async () => {
      const ins = await t.repo.insertAll(Product, [
        { name: 'A', price: 1 },
        { name: 'B', price: 2 },
        { name: 'C', price: 3, description: 'c' },
      ])
      expect(ins.ok && ins.value.count).toBe(3)
      expect(ins.ok && ins.value.rows.map((r) => [r.id, r.inserted_at instanceof Date])).toEqual([
        [1, true],
        [2, true],
        [3, true],
      ])
      expect(await t.repo.updateAll(where(from(Product), 'price', '<', 3), { description: 'cheap' })).toEqual({
        ok: true,
        value: { count: 2 },
      })
      expect(await t.repo.all(where(from(Product), { description: 'cheap' }))).toBeDefined()
      expect(await t.repo.deleteAll(where(from(Product), { description: 'cheap' }))).toEqual({
        ok: true,
        value: { count: 2 },
      })
      expect(await t.count('products')).toBe(1)
      expect(await t.repo.insertAll(Product, [])).toEqual({ ok: true, value: { count: 0, rows: [] } })
    })

    it('insert with onConflict upserts', async () => {
      await t.repo.insert(productCs({ name: 'A', price: 1 }))
      const r = await t.repo.insert(productCs({ name: 'A', price: 7 }), {
        onConflict: { target: ['name'], replace: ['price'] },
      })
      expect(r.ok && r.value).toMatchObject({ id: 1, name: 'A', price: 7 })
      expect(await t.count('products')).toBe(1)
    })

    it('query runs raw SQL with parameters; a bad statement is an error result', async () => {
      const r = await t.repo.query<{ n: number }>('select $1::int + 1 as n', [41])
      expect(r.ok && r.value.rows).toEqual([{ n: 42 }])
      const bad = await t.repo.query('selec 1')
      expect(bad).toMatchObject({ ok: false, error: { kind: 'db_error', code: '42601' } })
    })

    it('every field type round-trips from string input', async () => {
      const params = {
        label: 'L',
        body: 'B',
        count: '12',
        ratio: '1.5',
        active: 'true',
        happened_at: '2024-03-01T10:20:30.123Z',
        day: '2024-02-29',
        ref: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
        meta: [1, { a: 'x' }],
        tags: ['a', "b'c"],
        scores: ['1', 2],
        status: 'draft',
      }
      const cs = cast(Thing, {}, params, Object.keys(params) as never)
      expect(cs.errors).toEqual([])
      const ins = await t.repo.insert(cs)
      if (!ins.ok) throw new Error(JSON.stringify(ins.error))
      const expected = {
        id: 1,
        label: 'L',
        body: 'B',
        count: 12,
        ratio: 1.5,
        active: true,
        happened_at: new Date('2024-03-01T10:20:30.123Z'),
        day: '2024-02-29',
        ref: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
        meta: [1, { a: 'x' }],
        tags: ['a', "b'c"],
        scores: [1, 2],
        status: 'draft',
      }
      expect(ins.value).toEqual(expected)
      expect(await t.repo.get(Thing, 1)).toEqual(expected)
      expect(await t.repo.getBy(Thing, { day: '2024-02-29', ref: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' })).toEqual(
        expected,
      )
    })
  })
}
