import { describe, expect, it } from 'vitest'
import { and, cond, exists, not, or } from './conditions.ts'
import { limit, offset, orderBy, select, where } from './operators.ts'
import { from, withCount } from './builder.ts'
import { sum } from './aggregate.ts'
import { groupBy, having, join } from './join.ts'
import { compileDeleteAll, compileSelect, compileSelectKeyed, compileUpdateAll } from './compile.ts'
import { Product, Thing } from '../test/schemas.ts'
import { Customer, LineItem, WorkOrder } from '../test/schemas-queries.ts'

const cols = '"id", "name", "price", "description", "inserted_at", "updated_at"'

describe('compiling in one walk', () => {
  const page = (tier: 'free' | 'pro', n: number) =>
    from(WorkOrder)
      .join('customer')
      .where('customer.tier', '=', tier)
      .where(or(cond('title', 'like', { startsWith: 'T' }), cond('customer_id', 'in', [1, 2])))
      .orderBy('id')
      .limit(n)

  it('key, SQL and parameters agree: each $n is the value pushed at that point of the text', () => {
    const s = compileSelectKeyed(page('pro', 20))
    expect(s.sql).toBe(
      'select "orders"."id", "orders"."title", "orders"."status", "orders"."estimate_minutes", "orders"."customer_id", "orders"."inserted_at", "orders"."updated_at" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 and ("orders"."title" like $2 or "orders"."customer_id" = any($3)) order by "orders"."id" asc limit $4',
    )
    expect(s.params).toEqual(['pro', 'T%', [1, 2], 20])
    expect(s.key).not.toContain('pro')
  })

  it('the same query compiled twice gives the same key and text; new values change only the parameters', () => {
    const a = compileSelectKeyed(page('pro', 20))
    const again = compileSelectKeyed(page('pro', 20))
    const other = compileSelectKeyed(page('free', 5))
    expect(again).toEqual(a)
    expect(other.key).toBe(a.key)
    expect(other.sql).toBe(a.sql)
    expect(other.params).toEqual(['free', 'T%', [1, 2], 5])
  })

  it('a different shape gives a different key and text', () => {
    const a = compileSelectKeyed(page('pro', 20))
    const b = compileSelectKeyed(page('pro', 20).offset(10))
    const c = compileSelectKeyed(
      from(WorkOrder).join('customer').where('customer.tier', '!=', 'pro').orderBy('id').limit(20),
    )
    expect(b.key).not.toBe(a.key)
    expect(b.sql).toBe(`${a.sql} offset $5`)
    expect(c.key).not.toBe(a.key)
    expect(c.sql).not.toBe(a.sql)
  })
})

describe('query builder', () => {
  it('compiles equality maps: value, null, list', () => {
    const s = compileSelect(where(from(Product), { name: 'Tea', description: null, id: [1, 2] }))
    expect(s.sql).toBe(
      `select ${cols} from "products" where ("name" = $1 and "description" is null and "id" = any($2))`,
    )
    expect(s.params).toEqual(['Tea', [1, 2]])
  })

  it('compiles operators, groups, order, limit and offset with parameters in SQL order', () => {
    let q = where(from(Product), 'price', '>', 10)
    q = where(
      q,
      or(cond('name', 'ilike', '%tea%'), and(cond('price', '<=', 5), not(cond('description', 'is not null')))),
    )
    q = where(q, 'id', 'not in', [7])
    q = limit(offset(orderBy(q, ['price', 'desc'], 'name'), 20), 10)
    const s = compileSelect(q)
    expect(s.sql).toBe(
      `select ${cols} from "products" where "price" > $1 and ("name" ilike $2 or ("price" <= $3 and not ("description" is not null))) and not ("id" = any($4)) order by "price" desc, "name" asc limit $5 offset $6`,
    )
    expect(s.params).toEqual([10, '%tea%', 5, [7], 10, 20])
  })

  it('reuses the compiled shape with new values', () => {
    const a = compileSelect(where(from(Product), 'name', '=', 'a'))
    const b = compileSelect(where(from(Product), 'name', '=', "'; DROP TABLE products; --"))
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual(["'; DROP TABLE products; --"])
  })

  it('select narrows the columns, count wraps the filtered rows', () => {
    expect(compileSelect(select(from(Product), ['id', 'name'])).sql).toBe('select "id", "name" from "products"')
    const c = compileSelect(limit(withCount(where(from(Product), { price: 3 })), 5))
    expect(c.sql).toBe(
      'select count(*) as "count" from (select 1 from "products" where "price" = $1 limit $2) as "counted"',
    )
    expect(c.params).toEqual([3, 5])
  })

  it('serialises jsonb values in where clauses', () => {
    expect(compileSelect(where(from(Thing), { meta: { a: [1] } })).params).toEqual(['{"a":[1]}'])
  })

  it('rejects unknown fields, operators and directions at build time', () => {
    // @ts-expect-error unknown field
    expect(() => where(from(Product), { nope: 1 })).toThrow('schema products has no field "nope"')
    // @ts-expect-error unknown operator
    expect(() => where(from(Product), 'price', '; drop', 1)).toThrow('unknown query operator')
    // @ts-expect-error field name with SQL in it
    expect(() => orderBy(from(Product), ['name; DROP TABLE products', 'asc'])).toThrow('has no field')
    // @ts-expect-error bad direction
    expect(() => orderBy(from(Product), ['name', 'desc; DROP TABLE products'])).toThrow('has no field')
    // @ts-expect-error prototype keys are not fields
    expect(() => where(from(Product), { __proto__: 1, constructor: 1 })).toThrow('has no field')
    expect(() => where(from(Product), { name: undefined })).toThrow('a value is missing')
    expect(() => where(from(Product), 'price', '=', null as unknown as number)).toThrow("use 'is null'")
    expect(() => limit(from(Product), -1)).toThrow('non-negative integer')
    // @ts-expect-error select of an unknown field
    expect(() => select(from(Product), ['id', 'x'])).toThrow('has no field')
  })

  it('bulk statements take only where clauses', () => {
    const u = compileUpdateAll(where(from(Product), 'price', '<', 5), { price: 5, description: 'cheap' })
    expect(u.sql).toBe('update "products" set "description" = $1, "price" = $2 where "price" < $3')
    expect(u.params).toEqual(['cheap', 5, 5])
    expect(compileDeleteAll(where(from(Product), { id: 3 })).sql).toBe('delete from "products" where "id" = $1')
    expect(() => compileDeleteAll(limit(from(Product), 1))).toThrow('only where clauses')
  })

  it('empty groups mean true (and) and false (or)', () => {
    expect(compileSelect(where(from(Product), or())).sql).toContain('where false')
    expect(compileSelect(where(from(Product), and())).sql).toContain('where true')
  })

  it('numbers parameters in SQL order through subqueries inside groups, having, limit and offset', () => {
    const pro = (tier: 'free' | 'pro', n: number) => limit(select(where(from(Customer), { tier }), ['id']), n)
    let q = where(
      join(from(WorkOrder), 'line_items'),
      or(cond('title', '=', 'T'), cond('customer_id', 'in', pro('pro', 7))),
    )
    q = where(q, not(exists(where(from(LineItem), 'quantity', '>', 3), { correlate: ['id', 'work_order_id'] })))
    q = where(q, 'line_items.unit_price', '<', 500)
    const s = compileSelect(offset(limit(having(groupBy(q, ['id']), sum('line_items.quantity'), '>=', 2), 10), 20))
    expect(s.sql).toBe(
      'select "orders"."id", "orders"."title", "orders"."status", "orders"."estimate_minutes", "orders"."customer_id", "orders"."inserted_at", "orders"."updated_at" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" where ("orders"."title" = $1 or "orders"."customer_id" in (select "customers"."id" from "customers" where "customers"."tier" = $2 limit $3)) and not (exists (select 1 from "order_lines" where "order_lines"."quantity" > $4 and "order_lines"."work_order_id" = "orders"."id")) and "line_items"."unit_price" < $5 group by "orders"."id" having sum("line_items"."quantity") >= $6 limit $7 offset $8',
    )
    expect(s.params).toEqual(['T', 'pro', 7, 3, 500, 2, 10, 20])
    // Same shape, new values: the cached statement, values reordered alike.
    const again = compileSelect(
      offset(
        limit(
          having(
            groupBy(
              where(
                where(
                  where(
                    join(from(WorkOrder), 'line_items'),
                    or(cond('title', '=', 'U'), cond('customer_id', 'in', pro('free', 1))),
                  ),
                  not(exists(where(from(LineItem), 'quantity', '>', 9), { correlate: ['id', 'work_order_id'] })),
                ),
                'line_items.unit_price',
                '<',
                1,
              ),
              ['id'],
            ),
            sum('line_items.quantity'),
            '>=',
            5,
          ),
          2,
        ),
        3,
      ),
    )
    expect(again.sql).toBe(s.sql)
    expect(again.params).toEqual(['U', 'free', 1, 9, 1, 5, 2, 3])
  })

  it('updateAll and deleteAll take subquery conditions, the outer table named in the correlation', () => {
    const d = compileDeleteAll(
      where(from(Customer), not(exists(from(WorkOrder), { correlate: ['id', 'customer_id'] }))),
    )
    expect(d.sql).toBe(
      'delete from "customers" where not (exists (select 1 from "orders" where "orders"."customer_id" = "customers"."id"))',
    )
    const u = compileUpdateAll(
      where(from(WorkOrder), 'customer_id', 'in', select(where(from(Customer), { tier: 'free' }), ['id'])),
      { status: 'done' },
    )
    expect(u.sql).toBe(
      'update "orders" set "status" = $1 where "orders"."customer_id" in (select "customers"."id" from "customers" where "customers"."tier" = $2)',
    )
    expect(u.params).toEqual(['done', 'free'])
    expect(() => compileDeleteAll(join(from(WorkOrder), 'customer'))).toThrow('only where clauses apply')
  })
})
