import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { forgetDeprecationWarnings } from '../../server/deprecation.ts'
import { cast } from '../changeset.ts'
import { count, from, select } from '../index.ts'
import { defineRepo } from '../repo.ts'
import { ddl, Product } from '../test/schemas.ts'
import { withOldReadShape } from './old-read-shape.ts'

const repo = defineRepo({ url: 'memory:' })
let codes: string[]
let messages: string[]

beforeAll(async () => {
  for (const statement of ddl) expect((await repo.query(statement)).ok).toBe(true)
  for (const [name, price] of [
    ['Lamp', 30],
    ['Desk', 200],
  ] as const)
    expect((await repo.insert(cast(Product, {}, { name, price }, ['name', 'price']))).ok).toBe(true)
})
afterAll(() => repo.stop())

beforeEach(() => {
  forgetDeprecationWarnings()
  codes = []
  messages = []
  vi.spyOn(process, 'emitWarning').mockImplementation(((message: string, opts: { code: string }) => {
    codes.push(opts.code)
    messages.push(message)
  }) as typeof process.emitWarning)
  return () => vi.restoreAllMocks()
})

describe('reads still answer the { ok, value } reading of the last release', () => {
  it('code written for results keeps working, and the first use warns once', async () => {
    // As the 0.1 starter wrote its reads.
    const res = (await repo.all(from(Product).orderBy('name'))) as unknown as {
      ok: boolean
      value: { name: string }[]
      error: unknown
    }
    if (!res.ok) throw res.error
    expect(res.value.map((p) => p.name)).toEqual(['Desk', 'Lamp'])
    expect(res.error).toBeUndefined()
    const counted = (await repo.one(select(from(Product), { n: count() }))) as unknown as {
      ok: boolean
      value: { n: number }
    }
    expect(counted.ok).toBe(true)
    expect(Number(counted.value.n)).toBe(2)
    const lamp = (await repo.getBy(Product, { name: 'Lamp' })) as unknown as { ok: boolean; value: { id: number } }
    expect(lamp.ok).toBe(true)
    const byId = (await repo.get(Product, lamp.value.id)) as unknown as { value: { name: string } }
    expect(byId.value.name).toBe('Lamp')
    const again = (await repo.reload(Product, lamp.value)) as unknown as { value: { price: number } }
    expect(again.value.price).toBe(30)
    expect(codes).toEqual(['VELA_DEP_DBL_READ_RESULT'])
    expect(messages[0]).toContain('read them directly instead of .ok and .value')
  })

  it('reading the rows and records directly does not warn', async () => {
    const rows = await repo.all(from(Product).orderBy('name'))
    expect(rows.map((p) => p.name)).toEqual(['Desk', 'Lamp'])
    const lamp = await repo.getBy(Product, { name: 'Lamp' })
    expect(lamp?.price).toBe(30)
    expect((await repo.get(Product, lamp!.id))?.name).toBe('Lamp')
    expect((await repo.one(from(Product).where('name', '=', 'Desk')))?.price).toBe(200)
    expect((await repo.reload(lamp!))?.name).toBe('Lamp')
    expect(await repo.count(from(Product))).toBe(2)
    expect(codes).toEqual([])
  })

  it('JSON, spreads, Object.keys and deep equality see only the rows and fields', async () => {
    const rows = await repo.all(from(Product).select(['name', 'price']).orderBy('name'))
    const plain = [
      { name: 'Desk', price: 200 },
      { name: 'Lamp', price: 30 },
    ]
    expect(rows).toEqual(plain)
    expect(rows).toStrictEqual(plain)
    expect(JSON.parse(JSON.stringify(rows))).toEqual(plain)
    expect(Object.keys(rows)).toEqual(['0', '1'])
    expect([...rows]).toEqual(plain)
    const desk = await repo.one(from(Product).select(['name', 'price']).where('name', '=', 'Desk'))
    expect(desk).toStrictEqual({ name: 'Desk', price: 200 })
    expect(JSON.stringify(desk)).toBe('{"name":"Desk","price":200}')
    expect(Object.keys(desk!)).toEqual(['name', 'price'])
    expect({ ...desk }).toStrictEqual({ name: 'Desk', price: 200 })
    expect(Object.entries((await repo.getBy(Product, { name: 'Desk' }))!).map(([k]) => k)).not.toContain('ok')
    expect(codes).toEqual([])
  })

  it('nothing found is undefined, which carries no bridge', async () => {
    expect(await repo.get(Product, 999)).toBeUndefined()
    expect(await repo.one(from(Product).where('name', '=', 'None'))).toBeUndefined()
  })

  it("a record's own ok, value or error field is left as it is, and assigning one makes a plain field", async () => {
    const row = await repo.one(from(Product).select({ value: 'price' }).where('name', '=', 'Lamp'))
    expect(row).toEqual({ value: 30 })
    expect((row as unknown as { ok?: boolean }).ok).toBeUndefined()
    const desk = (await repo.getBy(Product, { name: 'Desk' })) as unknown as Record<string, unknown>
    desk.error = 'mine'
    expect(desk.error).toBe('mine')
    expect(Object.keys(desk)).toContain('error')
    expect(codes).toEqual([])
  })
})

describe('withOldReadShape', () => {
  it('leaves values that cannot carry getters as they are', () => {
    const frozen = Object.freeze({ a: 1 })
    expect(withOldReadShape(frozen)).toBe(frozen)
    expect(withOldReadShape(undefined)).toBeUndefined()
    expect(withOldReadShape(3)).toBe(3)
    expect((frozen as unknown as { ok?: boolean }).ok).toBeUndefined()
  })
})
