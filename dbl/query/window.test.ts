import { describe, expect, expectTypeOf, it } from 'vitest'
import { avg, sum } from './aggregate.ts'
import { from, type RowOf } from './builder.ts'
import { compileSelectKeyed } from './compile.ts'
import { count } from './operators.ts'
import { denseRank, over, rank, rowNumber } from './window.ts'
import { LineItem, WorkOrder } from '../test/schemas-queries.ts'

describe('window functions', () => {
  const ranked = (status: 'open' | 'done') =>
    from(WorkOrder)
      .where('status', '=', status)
      .select({
        id: 'id',
        nth: rowNumber({ partitionBy: ['customer_id'], orderBy: [['id', 'desc']] }),
        place: rank({ orderBy: ['estimate_minutes'] }),
        dense: denseRank({ partitionBy: ['status', 'customer_id'] }),
      })
      .orderBy('nth', 'id')

  it('writes each function with its window; the row type has a number per ranking', () => {
    const q = ranked('open')
    expectTypeOf<RowOf<typeof q>>().toEqualTypeOf<{
      readonly id: number
      readonly nth: number
      readonly place: number
      readonly dense: number
    }>()
    const s = compileSelectKeyed(q)
    expect(s.sql).toBe(
      'select "id", row_number() over (partition by "customer_id" order by "id" desc) as "nth", rank() over (order by "estimate_minutes" asc) as "place", dense_rank() over (partition by "status", "customer_id") as "dense" from "orders" where "status" = $1 order by "nth" asc, "id" asc',
    )
    expect(s.params).toEqual(['open'])
  })

  it('two calls with different values share one statement; another window is another statement', () => {
    const a = compileSelectKeyed(ranked('open'))
    const b = compileSelectKeyed(ranked('done'))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual(['done'])
    const other = from(WorkOrder).select({ id: 'id', nth: rowNumber({ partitionBy: ['status'], orderBy: ['id'] }) })
    const same = from(WorkOrder).select({ id: 'id', nth: rowNumber({ partitionBy: ['customer_id'], orderBy: ['id'] }) })
    expect(compileSelectKeyed(other).key).not.toBe(compileSelectKeyed(same).key)
  })

  it('aggregates over a window, with joined paths, typed as the aggregate', () => {
    const q = from(LineItem)
      .join('work_order')
      .select({
        id: 'id',
        total: over(sum('quantity'), { partitionBy: ['work_order_id'] }),
        running: over(sum(['quantity', '*', 'unit_price']), { orderBy: ['id'] }),
        n: over(count(), { partitionBy: ['work_order.status'] }),
        mean: over(avg('quantity')),
      })
    expectTypeOf<RowOf<typeof q>>().toEqualTypeOf<{
      readonly id: number
      readonly total: number | null
      readonly running: number | null
      readonly n: number
      readonly mean: number | null
    }>()
    expect(compileSelectKeyed(q).sql).toBe(
      'select "order_lines"."id" as "id", sum("order_lines"."quantity") over (partition by "order_lines"."work_order_id") as "total", sum("order_lines"."quantity" * "order_lines"."unit_price") over (order by "order_lines"."id" asc) as "running", count(*) over (partition by "work_order"."status") as "n", avg("order_lines"."quantity") over () as "mean" from "order_lines" inner join "orders" as "work_order" on "work_order"."id" = "order_lines"."work_order_id"',
    )
  })

  it('refuses unknown fields, sum of text, bad terms, and locking', () => {
    // @ts-expect-error not a field
    expect(() => from(WorkOrder).select({ n: rowNumber({ orderBy: ['nope'] }) })).toThrow('has no field "nope"')
    // @ts-expect-error sum of a text field
    expect(() => from(WorkOrder).select({ s: over(sum('title')) })).toThrow('sum(title): title is a "string" field')
    // @ts-expect-error a bad direction
    expect(() => rank({ orderBy: [['id', 'up']] })).toThrow(`rank: orderBy term ["id","up"] is not a field`)
    expect(() => compileSelectKeyed(from(WorkOrder).select({ n: rank() }).lock('for update'))).toThrow(
      'cannot be locked',
    )
  })
})
