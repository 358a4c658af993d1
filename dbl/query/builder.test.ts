import { describe, expect, expectTypeOf, it } from 'vitest'
import { count, sum } from '../index.ts'
import { avg } from './aggregate.ts'
import { from } from './builder.ts'
import { compileSelect } from './compile.ts'
import { and, cond } from './conditions.ts'
import { distinct, groupBy, having, join, leftJoin, lock } from './join.ts'
import { limit, offset, orderBy, select, where } from './operators.ts'
import { Product } from '../test/schemas.ts'
import { LineItem, WorkOrder } from '../test/schemas-queries.ts'

describe('chained queries', () => {
  it('every method returns a new query and leaves its receiver unchanged', () => {
    const base = from(Product)
    const before = compileSelect(base)
    const steps = [
      base.where('price', '>', 100),
      base.where({ name: 'Tea' }),
      base.orderBy(['price', 'desc']),
      base.limit(5),
      base.offset(5),
      base.select(['id']),
      base.lock('for update'),
      base.distinct(),
      base.groupBy(['name']),
    ]
    for (const q of steps) {
      expect(q).not.toBe(base)
      expect(compileSelect(q).sql).not.toBe(before.sql)
    }
    expect(compileSelect(base)).toEqual(before)
    expect(base.conds).toEqual([])
    // A refined query can be refined again in two ways without either seeing the other.
    const cheap = base.where('price', '<', 10)
    const a = cheap.where({ name: 'A' })
    const b = cheap.orderBy('name')
    expect(compileSelect(cheap).sql).toBe(
      'select "id", "name", "price", "description", "inserted_at", "updated_at" from "products" where "price" < $1',
    )
    expect(compileSelect(a).params).toEqual([10, 'A'])
    expect(compileSelect(b).sql).toMatch(/where "price" < \$1 order by "name" asc$/)
  })

  it('a chain compiles as the same free functions do', () => {
    const chained = from(WorkOrder)
      .join('customer')
      .leftJoin('line_items')
      .where('customer.tier', '=', 'pro')
      .where(and(cond('status', '=', 'open'), cond('line_items.quantity', '>', 1)))
      .groupBy(['id'])
      .having(sum('line_items.quantity'), '>=', 2)
      .select({ id: 'id', items: sum('line_items.quantity') })
      .orderBy(['items', 'desc'])
      .limit(10)
      .offset(20)
    const nested = offset(
      limit(
        orderBy(
          select(
            having(
              groupBy(
                where(
                  where(leftJoin(join(from(WorkOrder), 'customer'), 'line_items'), 'customer.tier', '=', 'pro'),
                  and(cond('status', '=', 'open'), cond('line_items.quantity', '>', 1)),
                ),
                ['id'],
              ),
              sum('line_items.quantity'),
              '>=',
              2,
            ),
            { id: 'id', items: sum('line_items.quantity') },
          ),
          ['items', 'desc'],
        ),
        10,
      ),
      20,
    )
    expect(compileSelect(chained)).toEqual(compileSelect(nested))
    expect(compileSelect(from(Product).select(['name']).distinct()).sql).toBe(
      compileSelect(distinct(select(from(Product), ['name']))).sql,
    )
    expect(compileSelect(from(Product).where({ id: 1 }).lock('for update', { skipLocked: true })).sql).toBe(
      compileSelect(lock(where(from(Product), { id: 1 }), 'for update', { skipLocked: true })).sql,
    )
  })

  it('the row type flows through select and join', () => {
    const rows = from(WorkOrder).join('customer').select(['id', 'customer.name'])
    expectTypeOf(rows['~row']).toEqualTypeOf<
      { readonly id: number; readonly customer: { readonly name: string } } | undefined
    >()
    const stats = from(LineItem).select({ n: count(), avg: avg('quantity') })
    expectTypeOf(stats['~row']).toEqualTypeOf<{ readonly n: number; readonly avg: number | null } | undefined>()
    // Through a LEFT JOIN a joined field may be null.
    const left = from(WorkOrder).leftJoin('customer').select(['id', 'customer.name'])
    expectTypeOf<NonNullable<(typeof left)['~row']>['customer']['name']>().toEqualTypeOf<string | null>()
    // @ts-expect-error a joined path must be joined first
    expect(() => from(WorkOrder).where('customer.tier', '=', 'pro')).toThrow("join 'customer' first")
    // @ts-expect-error an unknown field
    expect(() => from(Product).orderBy('nope')).toThrow('has no field')
  })
})
