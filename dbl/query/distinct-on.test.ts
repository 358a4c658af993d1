import { describe, expect, it } from 'vitest'
import { from } from './builder.ts'
import { compileSelectKeyed } from './compile.ts'
import { distinctOn } from './join.ts'
import { WorkOrder } from '../test/schemas-queries.ts'

describe('distinctOn', () => {
  const latest = (status: 'open' | 'done') =>
    from(WorkOrder)
      .where('status', '=', status)
      .distinctOn(['customer_id'])
      .select(['id', 'customer_id'])
      .orderBy('customer_id', ['id', 'desc'])

  it('writes DISTINCT ON with its fields; values are parameters', () => {
    const s = compileSelectKeyed(latest('open'))
    expect(s.sql).toBe(
      'select distinct on ("customer_id") "id", "customer_id" from "orders" where "status" = $1 order by "customer_id" asc, "id" desc',
    )
    expect(s.params).toEqual(['open'])
  })

  it('two calls with different values share one statement; other fields are another statement', () => {
    const a = compileSelectKeyed(latest('open'))
    const b = compileSelectKeyed(latest('done'))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual(['done'])
    const c = compileSelectKeyed(distinctOn(from(WorkOrder), ['customer_id', 'status']).join('customer'))
    expect(c.key).not.toBe(compileSelectKeyed(distinctOn(from(WorkOrder), ['customer_id']).join('customer')).key)
    expect(c.sql).toMatch(/^select distinct on \("orders"\."customer_id", "orders"\."status"\) "orders"\."id"/)
  })

  it('refuses an empty list, unknown fields, and locking', () => {
    expect(() => from(WorkOrder).distinctOn([])).toThrow('distinctOn: give at least one field')
    // @ts-expect-error not a field
    expect(() => from(WorkOrder).distinctOn(['nope'])).toThrow('has no field "nope"')
    expect(() => compileSelectKeyed(latest('open').lock('for update'))).toThrow('cannot be locked')
  })
})
