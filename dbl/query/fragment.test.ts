import { describe, expect, expectTypeOf, it } from 'vitest'
import { from, type RowOf } from './builder.ts'
import { compileSelectKeyed, compileUpdateAll } from './compile.ts'
import { not, or } from './conditions.ts'
import { field, sql } from './fragment.ts'
import { Customer, WorkOrder } from '../test/schemas-queries.ts'

describe('sql fragments', () => {
  const q = (name: string, bonus: number) =>
    from(WorkOrder)
      .join('customer')
      .where(sql`lower(${field('customer.name')}) = ${name}`)
      .select({ id: 'id', minutes: sql<number>`coalesce(${field('estimate_minutes')}, 0) + ${bonus}` })
      .orderBy([sql`length(${field('title')})`, 'desc'], 'id')

  it('fields become quoted columns, values parameters in text order (select list first)', () => {
    expectTypeOf<RowOf<ReturnType<typeof q>>>().toEqualTypeOf<{ readonly id: number; readonly minutes: number }>()
    const s = compileSelectKeyed(q('acme', 5))
    expect(s.sql).toBe(
      'select "orders"."id" as "id", coalesce("orders"."estimate_minutes", 0) + $1 as "minutes" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where lower("customer"."name") = $2 order by length("orders"."title") desc, "id" asc',
    )
    expect(s.params).toEqual([5, 'acme'])
  })

  it('two calls with different values share one statement; another template is another', () => {
    const a = compileSelectKeyed(q('acme', 5))
    const b = compileSelectKeyed(q("o'hara; drop table orders", 0))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual([0, "o'hara; drop table orders"])
    const upper = compileSelectKeyed(from(Customer).where(sql`upper(${field('name')}) = ${'A'}`))
    const lower = compileSelectKeyed(from(Customer).where(sql`lower(${field('name')}) = ${'A'}`))
    expect(upper.key).not.toBe(lower.key)
    // A value where a field was is another statement too.
    const asValue = compileSelectKeyed(from(Customer).where(sql`lower(${'name'}) = ${'A'}`))
    expect(asValue.key).not.toBe(lower.key)
    expect(asValue.sql).toBe('select "id", "name", "tier" from "customers" where lower($1) = $2')
  })

  it('nests, combines with and / or / not, and works in updateAll', () => {
    const trimmed = sql`trim(${field('name')})`
    const s = compileSelectKeyed(
      from(Customer).where(or(sql`${trimmed} = ${'Acme'}`, not(sql`${field('tier')} = any(${['pro']})`))),
    )
    expect(s.sql).toBe(
      'select "id", "name", "tier" from "customers" where (trim("name") = $1 or not ("tier" = any($2)))',
    )
    expect(s.params).toEqual(['Acme', ['pro']])
    expect(compileUpdateAll(from(Customer).where(sql`${field('id')} % ${2} = 0`), { tier: 'pro' })).toEqual({
      sql: 'update "customers" set "tier" = $1 where "id" % $2 = 0',
      params: ['pro', 2],
    })
  })

  it('an exists subquery selecting a fragment keeps its values in place', () => {
    const s = compileSelectKeyed(
      from(Customer).where('id', 'in', from(WorkOrder).select({ c: sql<number>`${field('customer_id')} + ${0}` })),
    )
    expect(s.sql).toBe(
      'select "customers"."id", "customers"."name", "customers"."tier" from "customers" where "customers"."id" in (select "orders"."customer_id" + $1 as "c" from "orders")',
    )
    expect(s.params).toEqual([0])
  })

  it('refuses unknown fields (a type error too), undefined values and a call that is not a tag', () => {
    // @ts-expect-error not a field of the query
    expect(() => from(Customer).where(sql`${field('nope')} = 1`)).toThrow('has no field "nope"')
    expect(() => sql`${field('name')} = ${undefined}`).toThrow('a value is undefined (use null for NULL)')
    expect(() => (sql as (s: unknown) => unknown)('name = 1')).toThrow('use it as a template tag')
  })
})
