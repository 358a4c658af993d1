import { describe, expect, it } from 'vitest'
import { from } from './builder.ts'
import { compileSelectKeyed, compileDeleteAll } from './compile.ts'
import { between, notBetween, or } from './conditions.ts'
import { Thing } from '../test/schemas.ts'
import { WorkOrder } from '../test/schemas-queries.ts'

describe('between, notBetween', () => {
  const q = (lo: number, hi: number) =>
    from(WorkOrder)
      .where(between('estimate_minutes', lo, hi))
      .where('status', '=', 'open')

  it('writes BETWEEN with both bounds as parameters, in text order', () => {
    const s = compileSelectKeyed(q(10, 40).select(['id']))
    expect(s.sql).toBe('select "id" from "orders" where "estimate_minutes" between $1 and $2 and "status" = $3')
    expect(s.params).toEqual([10, 40, 'open'])
    const n = compileSelectKeyed(
      from(WorkOrder)
        .join('customer')
        .where(or(notBetween('id', 2, 3), between('customer.name', 'A', 'B')))
        .select(['id']),
    )
    expect(n.sql).toBe(
      'select "orders"."id" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where ("orders"."id" not between $1 and $2 or "customer"."name" between $3 and $4)',
    )
    expect(n.params).toEqual([2, 3, 'A', 'B'])
  })

  it('two calls with different values share one statement; not between is another', () => {
    const a = compileSelectKeyed(q(10, 40))
    const b = compileSelectKeyed(q(0, 5))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual([0, 5, 'open'])
    expect(compileSelectKeyed(from(WorkOrder).where(notBetween('id', 1, 2))).key).not.toBe(
      compileSelectKeyed(from(WorkOrder).where(between('id', 1, 2))).key,
    )
  })

  it('encodes bounds as the field (jsonb as text), also in deleteAll', () => {
    expect(compileDeleteAll(from(Thing).where(between('meta', { a: 1 }, { a: 2 })))).toEqual({
      sql: 'delete from "things" where "meta" between $1 and $2',
      params: ['{"a":1}', '{"a":2}'],
    })
  })

  it('refuses missing bounds and unknown fields', () => {
    expect(() => between('id', 1, null)).toThrow('between(id): give both bounds')
    // @ts-expect-error not a field of the query
    expect(() => from(WorkOrder).where(between('nope', 1, 2))).toThrow('has no field "nope"')
  })
})
