import { describe, expect, expectTypeOf, it } from 'vitest'
import { sum } from './aggregate.ts'
import { count } from './operators.ts'
import { from, type RowOf } from './builder.ts'
import { compileSelectKeyed } from './compile.ts'
import { cte } from './cte.ts'
import { Customer, LineItem, WorkOrder } from '../test/schemas-queries.ts'

describe('cte', () => {
  const totals = (min: number) =>
    cte(
      'totals',
      from(LineItem)
        .where('quantity', '>=', min)
        .groupBy(['work_order_id'])
        .select({ work_order_id: 'work_order_id', total: sum('quantity') }),
    )

  it('writes the WITH in front, its values first among the parameters', () => {
    const q = from(totals(1)).where('total', '>', 2).orderBy(['total', 'desc']).limit(10)
    expectTypeOf<RowOf<typeof q>>().toEqualTypeOf<{ readonly work_order_id: number; readonly total: number | null }>()
    const s = compileSelectKeyed(q)
    expect(s.sql).toBe(
      'with "totals" as (select "work_order_id", sum("quantity") as "total" from "order_lines" where "quantity" >= $1 group by "work_order_id") select "work_order_id", "total" from "totals" where "total" > $2 order by "total" desc limit $3',
    )
    expect(s.params).toEqual([1, 2, 10])
  })

  it('two calls with different values share one statement', () => {
    const a = compileSelectKeyed(from(totals(1)).where('total', '>', 2))
    const b = compileSelectKeyed(from(totals(3)).where('total', '>', 0))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual([3, 0])
    // Another query under the same name is another statement.
    const other = cte('totals', from(LineItem).select({ work_order_id: 'work_order_id', total: 'quantity' }))
    expect(compileSelectKeyed(from(other).where('total', '>', 2)).key).not.toBe(a.key)
  })

  it('a CTE over a CTE, and one in a subquery, each write their own WITH', () => {
    const open = cte('open_orders', from(WorkOrder).where('status', '=', 'open').select(['id', 'customer_id']))
    const perCustomer = cte(
      'per_customer',
      from(open).groupBy(['customer_id']).select({ customer_id: 'customer_id', n: count() }),
    )
    const s = compileSelectKeyed(
      from(Customer).where('id', 'in', from(perCustomer).where('n', '>=', 1).select(['customer_id'])),
    )
    expect(s.sql).toBe(
      'select "customers"."id", "customers"."name", "customers"."tier" from "customers" where "customers"."id" in (with "per_customer" as (with "open_orders" as (select "id", "customer_id" from "orders" where "status" = $1) select "customer_id", count(*) as "n" from "open_orders" group by "customer_id") select "per_customer"."customer_id" from "per_customer" where "per_customer"."n" >= $2)',
    )
    expect(s.params).toEqual(['open', 1])
  })

  it('refuses bad names, counts, locks, and unnamed joined columns', () => {
    expect(() => cte('x y', from(LineItem))).toThrow('cte: the name "x y" must be letters, digits and _')
    expect(() => cte('l', from(LineItem).lock('for update'))).toThrow('a CTE cannot lock rows')
    expect(() => cte('j', from(WorkOrder).join('customer').select(['id', 'customer.name']))).toThrow(
      "cte j: select joined fields with select's object form",
    )
    // @ts-expect-error not a field of the CTE
    expect(() => from(totals(1)).where('quantity', '>', 1)).toThrow('has no field "quantity"')
  })
})
