import { describe, expect, expectTypeOf, it } from 'vitest'
import { from } from './builder.ts'
import { compileSelectKeyed } from './compile.ts'
import { except, intersect, union, unionAll } from './set-ops.ts'
import { Customer, Label, WorkOrder } from '../test/schemas-queries.ts'

describe('union, unionAll, intersect, except', () => {
  const names = (tier: 'free' | 'pro', like: string, n: number) =>
    from(Customer)
      .where('tier', '=', tier)
      .select(['name'])
      .union(from(Label).where('name', 'like', like).select(['name']))
      .orderBy(['name', 'desc'])
      .limit(n)

  it('writes the other query in parentheses; order and limit apply to the whole; values are parameters in text order', () => {
    const s = compileSelectKeyed(names('pro', 'a%', 5))
    expect(s.sql).toBe(
      'select "name" from "customers" where "tier" = $1 union (select "name" from "labels" where "name" like $2) order by "name" desc limit $3',
    )
    expect(s.params).toEqual(['pro', 'a%', 5])
  })

  it('two calls with different values share one statement', () => {
    const a = compileSelectKeyed(names('pro', 'a%', 5))
    const b = compileSelectKeyed(names('free', 'b%', 9))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual(['free', 'b%', 9])
    // Each kind of combination is a statement of its own.
    const all = compileSelectKeyed(unionAll(from(Customer).select(['name']), from(Label).select(['name'])))
    expect(all.key).not.toBe(
      compileSelectKeyed(union(from(Customer).select(['name']), from(Label).select(['name']))).key,
    )
    expect(all.sql).toBe('select "name" from "customers" union all (select "name" from "labels")')
  })

  it('intersect and except chain, the other query keeping its own order and limit', () => {
    const ids = from(Customer).select(['id'])
    const q = except(
      intersect(ids, from(WorkOrder).select({ id: 'customer_id' })),
      from(WorkOrder).where('status', '=', 'done').select({ id: 'customer_id' }).orderBy('id').limit(1),
    )
    expectTypeOf(q).toMatchTypeOf<{ readonly '~row'?: { readonly id: number } }>()
    const s = compileSelectKeyed(q)
    expect(s.sql).toBe(
      'select "id" from "customers" intersect (select "customer_id" as "id" from "orders") except (select "customer_id" as "id" from "orders" where "status" = $1 order by "id" asc limit $2)',
    )
    expect(s.params).toEqual(['done', 1])
  })

  it('refuses queries of different widths, locks and non-queries', () => {
    expect(() => union(from(Customer).select(['id', 'name']) as never, from(Label).select(['name']))).toThrow(
      'union: both queries must select as many columns (2 here, 1 in labels)',
    )
    expect(() =>
      from(Customer)
        .select(['name'])
        .union({} as never),
    ).toThrow('union: give a query')
    expect(() =>
      from(Customer)
        .select(['name'])
        .union(from(Label).select(['name']).lock('for update')),
    ).toThrow('union: a combined query cannot lock rows')
    const ids = from(Customer).select(['id'])
    // @ts-expect-error rows of another type
    void ids.union(from(Label).select(['name']))
  })
})
