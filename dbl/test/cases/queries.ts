/**
 * Queries over more than one table: joins through associations with joined fields named by path,
 * aggregates with GROUP BY / HAVING, subqueries, DISTINCT and row locks. Each feature's rows are
 * checked row by row, and its compiled SQL (values always parameters).
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { avg, max, min, sum } from '../../query/aggregate.ts'
import { count, limit, orderBy, select, where } from '../../query/operators.ts'
import { exists, not } from '../../query/conditions.ts'
import { from, withCount } from '../../query/builder.ts'
import type { Query } from '../../query/types.ts'
import { compileSelect } from '../../query/compile.ts'
import { distinct, groupBy, having, join, leftJoin, lock } from '../../query/join.ts'
import type { AnySchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Customer, Label, LineItem, WorkOrder } from '../schemas-queries.ts'

const wo =
  '"orders"."id", "orders"."title", "orders"."status", "orders"."estimate_minutes", "orders"."customer_id", "orders"."inserted_at", "orders"."updated_at"'

export function queryCases(t: SuiteContext): void {
  describe('queries over joined tables, aggregates, subqueries, locks', () => {
    const all = <S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<R[]> => t.repo.all(q)
    const one = async <S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<R> => {
      const r = await t.repo.one(q)
      if (r === undefined) throw new Error('no row')
      return r
    }
    // Acme (pro): #1 open with two items, #2 done with one; Bolt (free): #3 open, no items; Cargo (pro): no orders.
    const seed = async () => {
      const ok = (r: { ok: boolean }) => expect(r.ok).toBe(true)
      ok(
        await t.repo.insertAll(Customer, [
          { name: 'Acme', tier: 'pro' },
          { name: 'Bolt', tier: 'free' },
          { name: 'Cargo', tier: 'pro' },
        ]),
      )
      ok(
        await t.repo.insertAll(WorkOrder, [
          { title: 'Fix pump', status: 'open', estimate_minutes: 30, customer_id: 1 },
          { title: 'Paint wall', status: 'done', estimate_minutes: 60, customer_id: 1 },
          { title: 'Wire panel', status: 'open', estimate_minutes: null, customer_id: 2 },
        ]),
      )
      ok(
        await t.repo.insertAll(LineItem, [
          { work_order_id: 1, description: 'pipe', quantity: 2, unit_price: 150, discount: 0.5 },
          { work_order_id: 1, description: 'valve', quantity: 1, unit_price: 900, discount: null },
          { work_order_id: 2, description: 'paint', quantity: 4, unit_price: 250, discount: 1.25 },
        ]),
      )
    }

    it('join: INNER JOIN through belongsTo, a joined path in where, selected joined fields come back nested', async () => {
      await seed()
      const q = orderBy(where(join(from(WorkOrder), 'customer'), 'customer.tier', '=', 'pro'), 'id')
      const picked = select(q, ['id', 'title', 'customer.name'])
      expect(compileSelect(picked)).toMatchObject({
        sql: 'select "orders"."id", "orders"."title", "customer"."name" as "customer.name" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 order by "orders"."id" asc',
        params: ['pro'],
      })
      const rows = await all(picked)
      expectTypeOf(rows).toEqualTypeOf<
        { readonly id: number; readonly title: string; readonly customer: { readonly name: string } }[]
      >()
      expect(rows).toEqual([
        { id: 1, title: 'Fix pump', customer: { name: 'Acme' } },
        { id: 2, title: 'Paint wall', customer: { name: 'Acme' } },
      ])
      // Without select: the query's own records, one per joined row.
      expect(compileSelect(q).sql).toBe(
        `select ${wo} from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 order by "orders"."id" asc`,
      )
      expect((await all(q)).map((r) => r.title)).toEqual(['Fix pump', 'Paint wall'])
      // An equality map takes joined paths too.
      expect(
        (await all(orderBy(where(join(from(WorkOrder), 'customer'), { 'customer.name': ['Bolt'] }), 'id'))).map(
          (r) => r.id,
        ),
      ).toEqual([3])
    })

    it('leftJoin: rows without a match are kept with null joined fields; join drops them', async () => {
      await seed()
      const q = select(orderBy(leftJoin(from(Customer), 'work_orders'), 'name', 'work_orders.id'), [
        'name',
        'work_orders.title',
      ])
      expect(compileSelect(q).sql).toBe(
        'select "customers"."name", "work_orders"."title" as "work_orders.title" from "customers" left join "orders" as "work_orders" on "work_orders"."customer_id" = "customers"."id" order by "customers"."name" asc, "work_orders"."id" asc',
      )
      expect(await all(q)).toEqual([
        { name: 'Acme', work_orders: { title: 'Fix pump' } },
        { name: 'Acme', work_orders: { title: 'Paint wall' } },
        { name: 'Bolt', work_orders: { title: 'Wire panel' } },
        { name: 'Cargo', work_orders: { title: null } },
      ])
      const inner = select(orderBy(join(from(Customer), 'work_orders'), 'name', 'work_orders.id'), [
        'name',
        'work_orders.title',
      ])
      expect(compileSelect(inner).sql).toContain(
        'from "customers" inner join "orders" as "work_orders" on "work_orders"."customer_id" = "customers"."id"',
      )
      expect((await all(inner)).map((r) => r.name)).toEqual(['Acme', 'Acme', 'Bolt'])
    })

    it('a nested path joins each association on the way, and its fields nest two levels deep', async () => {
      await seed()
      const q = select(orderBy(join(from(WorkOrder), 'line_items.work_order'), 'line_items.id'), [
        'id',
        'line_items.quantity',
        'line_items.work_order.title',
      ])
      expect(compileSelect(q).sql).toBe(
        'select "orders"."id", "line_items"."quantity" as "line_items.quantity", "line_items__work_order"."title" as "line_items.work_order.title" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" inner join "orders" as "line_items__work_order" on "line_items__work_order"."id" = "line_items"."work_order_id" order by "line_items"."id" asc',
      )
      expect(await all(q)).toEqual([
        { id: 1, line_items: { quantity: 2, work_order: { title: 'Fix pump' } } },
        { id: 1, line_items: { quantity: 1, work_order: { title: 'Fix pump' } } },
        { id: 2, line_items: { quantity: 4, work_order: { title: 'Paint wall' } } },
      ])
    })

    it('groupBy / having with count (distinct), sum over a joined field and over quantity × unit price', async () => {
      await seed()
      const perCustomer = having(
        select(groupBy(join(from(WorkOrder), 'line_items'), ['customer_id']), {
          customer_id: 'customer_id',
          orders: count('id', { distinct: true }),
          minutes: sum('estimate_minutes'),
          items: sum('line_items.quantity'),
          total: sum(['line_items.quantity', '*', 'line_items.unit_price']),
        }),
        count(),
        '>',
        1,
      )
      expect(compileSelect(perCustomer)).toMatchObject({
        sql: 'select "orders"."customer_id" as "customer_id", count(distinct "orders"."id") as "orders", sum("orders"."estimate_minutes") as "minutes", sum("line_items"."quantity") as "items", sum("line_items"."quantity" * "line_items"."unit_price") as "total" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" group by "orders"."customer_id" having count(*) > $1',
        params: [1],
      })
      const rows = await all(perCustomer)
      expectTypeOf(rows).toEqualTypeOf<
        {
          readonly customer_id: number
          readonly orders: number
          readonly minutes: number | null
          readonly items: number | null
          readonly total: number | null
        }[]
      >()
      // Acme's three joined rows (#1 twice, #2 once); Bolt's order has no line items, so no joined row.
      expect(rows).toEqual([{ customer_id: 1, orders: 2, minutes: 120, items: 7, total: 2200 }])
      expect(await all(having(perCustomer, sum('line_items.quantity'), '>=', 8))).toEqual([])
    })

    it('the summary page: open orders and the sum of their line-item totals per customer, ordered by an aggregate', async () => {
      await seed()
      let q = leftJoin(join(from(Customer), 'work_orders'), 'work_orders.line_items')
      q = groupBy(where(q, 'work_orders.status', '=', 'open'), ['id', 'name'])
      const summary = orderBy(
        select(q, {
          name: 'name',
          open_orders: count('work_orders.id', { distinct: true }),
          total: sum(['work_orders.line_items.quantity', '*', 'work_orders.line_items.unit_price']),
        }),
        ['open_orders', 'desc'],
        'name',
      )
      expect(compileSelect(summary).sql).toBe(
        'select "customers"."name" as "name", count(distinct "work_orders"."id") as "open_orders", sum("work_orders__line_items"."quantity" * "work_orders__line_items"."unit_price") as "total" from "customers" inner join "orders" as "work_orders" on "work_orders"."customer_id" = "customers"."id" left join "order_lines" as "work_orders__line_items" on "work_orders__line_items"."work_order_id" = "work_orders"."id" where "work_orders"."status" = $1 group by "customers"."id", "customers"."name" order by "open_orders" desc, "name" asc',
      )
      expect(await all(summary)).toEqual([
        { name: 'Acme', open_orders: 1, total: 1200 },
        { name: 'Bolt', open_orders: 1, total: null },
      ])
    })

    it('whole-table aggregates: numbers (numeric and bigint converted), null over no rows, min/max keep the field type', async () => {
      const stats = select(from(LineItem), {
        n: count(),
        avg: avg('quantity'),
        max: max('quantity'),
        first: min('description'),
        off: sum('discount'),
        ids: sum('id'),
      })
      expect(compileSelect(stats).sql).toBe(
        'select count(*) as "n", avg("quantity") as "avg", max("quantity") as "max", min("description") as "first", sum("discount") as "off", sum("id") as "ids" from "order_lines"',
      )
      expect(await one(stats)).toEqual({ n: 0, avg: null, max: null, first: null, off: null, ids: null })
      await seed()
      const row = await one(stats)
      expectTypeOf(row).toEqualTypeOf<{
        readonly n: number
        readonly avg: number | null
        readonly max: number | null
        readonly first: string | null
        readonly off: number | null
        readonly ids: number | null
      }>()
      expect(row).toEqual({ n: 3, avg: expect.closeTo(7 / 3, 10), max: 4, first: 'paint', off: 1.75, ids: 6 })
      expect(typeof row.avg).toBe('number')
    })

    it('in / not in a subquery, itself filtered by a parameter', async () => {
      await seed()
      const pro = select(where(from(Customer), { tier: 'pro' }), ['id'])
      const q = orderBy(where(from(WorkOrder), 'customer_id', 'in', pro), 'id')
      expect(compileSelect(q)).toMatchObject({
        sql: `select ${wo} from "orders" where "orders"."customer_id" in (select "customers"."id" from "customers" where "customers"."tier" = $1) order by "orders"."id" asc`,
        params: ['pro'],
      })
      expect((await all(q)).map((r) => r.id)).toEqual([1, 2])
      expect(
        (
          await all(orderBy(where(where(from(WorkOrder), 'customer_id', 'not in', pro), 'status', '=', 'open'), 'id'))
        ).map((r) => r.id),
      ).toEqual([3])
    })

    it('exists with correlate, and not(exists(…)); the inner table gets its own alias when it is the outer one', async () => {
      await seed()
      const open = where(from(WorkOrder), 'status', '=', 'open')
      const q = orderBy(where(from(Customer), exists(open, { correlate: ['id', 'customer_id'] })), 'id')
      expect(compileSelect(q)).toMatchObject({
        sql: 'select "customers"."id", "customers"."name", "customers"."tier" from "customers" where exists (select 1 from "orders" where "orders"."status" = $1 and "orders"."customer_id" = "customers"."id") order by "customers"."id" asc',
        params: ['open'],
      })
      expect((await all(q)).map((c) => c.name)).toEqual(['Acme', 'Bolt'])
      const none = orderBy(where(from(Customer), not(exists(open, { correlate: ['id', 'customer_id'] }))), 'id')
      expect((await all(none)).map((c) => c.name)).toEqual(['Cargo'])
      // Orders of a customer who also has a done order: the same table inside and out.
      const self = where(
        from(WorkOrder),
        exists(where(from(WorkOrder), 'status', '=', 'done'), { correlate: ['customer_id', 'customer_id'] }),
      )
      expect(compileSelect(self).sql).toContain(
        'exists (select 1 from "orders" as "orders_2" where "orders_2"."status" = $1 and "orders_2"."customer_id" = "orders"."customer_id")',
      )
      expect((await all(orderBy(self, 'id'))).map((r) => r.id)).toEqual([1, 2])
    })

    it('distinct, and count of a distinct query counts its distinct rows', async () => {
      await seed()
      const q = distinct(select(from(WorkOrder), ['status']))
      expect(compileSelect(orderBy(q, 'status')).sql).toBe(
        'select distinct "status" from "orders" order by "status" asc',
      )
      expect(await all(orderBy(q, 'status'))).toEqual([{ status: 'done' }, { status: 'open' }])
      expect(compileSelect(withCount(q)).sql).toBe(
        'select count(*) as "count" from (select distinct "status" from "orders") as "counted"',
      )
      expect(await t.repo.count(q)).toBe(2)
      expect(await t.repo.count(from(Customer).join('work_orders'))).toBe(3)
    })

    it('lock compiles each mode with skipLocked / noWait', () => {
      const q = where(from(WorkOrder), { id: 1 })
      const tail = (l: Parameters<typeof lock>[1], o = {}) => compileSelect(lock(q, l, o)).sql.split('"id" = $1')[1]
      expect(tail('for update')).toBe(' for update')
      expect(tail('for no key update', { skipLocked: true })).toBe(' for no key update skip locked')
      expect(tail('for share', { noWait: true })).toBe(' for share nowait')
      expect(tail('for key share')).toBe(' for key share')
      expect(compileSelect(limit(lock(q, 'for update', { skipLocked: true }), 1))).toMatchObject({
        sql: expect.stringMatching(/ limit \$2 for update skip locked$/),
        params: [1, 1],
      })
    })

    it('a second transaction reading with skipLocked skips the row the first one locked; noWait fails at once', async () => {
      await seed()
      if (t.adapter.kind !== 'pg') {
        // One PGlite connection runs one transaction at a time, so no second one can meet the lock:
        // there the locking read runs and returns the rows inside a transaction.
        const inside = await t.repo.transaction(async () =>
          (
            await all(
              lock(orderBy(where(from(WorkOrder), 'status', '=', 'open'), 'id'), 'for update', { skipLocked: true }),
            )
          ).map((r) => r.id),
        )
        expect(inside).toEqual({ ok: true, value: [1, 3] })
        return
      }
      let locked!: () => void
      let release!: () => void
      const isLocked = new Promise<void>((r) => (locked = r))
      const held = new Promise<void>((r) => (release = r))
      const first = t.repo.transaction(async () => {
        expect(await all(lock(where(from(WorkOrder), { id: 1 }), 'for update'))).toHaveLength(1)
        locked()
        await held
      })
      try {
        await isLocked
        const open = orderBy(where(from(WorkOrder), 'status', '=', 'open'), 'id')
        const second = await t.repo.transaction(async () =>
          (await all(lock(open, 'for update', { skipLocked: true }))).map((r) => r.id),
        )
        expect(second).toEqual({ ok: true, value: [3] })
        await expect(t.repo.all(lock(open, 'for update', { noWait: true }))).rejects.toMatchObject({ code: '55P03' })
      } finally {
        release()
        expect((await first).ok).toBe(true)
      }
      // Once the first transaction ends, the row is free again.
      expect((await all(lock(open(), 'for update', { skipLocked: true }))).map((r) => r.id)).toEqual([1, 3])
      function open() {
        return orderBy(where(from(WorkOrder), 'status', '=', 'open'), 'id')
      }
    })

    it('a many-to-many association joins through its join table (two joins), INNER or LEFT', async () => {
      await seed()
      expect((await t.repo.insertAll(Label, [{ name: 'urgent' }, { name: 'outdoor' }])).ok).toBe(true)
      await t.adapter.query('insert into order_labels (work_order_id, label_id) values (1, 1), (1, 2), (3, 1)')
      const q = select(orderBy(where(join(from(WorkOrder), 'labels'), 'labels.name', '=', 'urgent'), 'id'), [
        'id',
        'labels.name',
      ])
      expect(compileSelect(q)).toMatchObject({
        sql: 'select "orders"."id", "labels"."name" as "labels.name" from "orders" inner join "order_labels" as "labels__through" on "labels__through"."work_order_id" = "orders"."id" inner join "labels" on "labels"."id" = "labels__through"."label_id" where "labels"."name" = $1 order by "orders"."id" asc',
        params: ['urgent'],
      })
      expect(await all(q)).toEqual([
        { id: 1, labels: { name: 'urgent' } },
        { id: 3, labels: { name: 'urgent' } },
      ])
      const perOrder = orderBy(
        select(groupBy(leftJoin(from(WorkOrder), 'labels'), ['id']), { id: 'id', labels: count('labels.id') }),
        'id',
      )
      expect(compileSelect(perOrder).sql).toContain(
        'from "orders" left join "order_labels" as "labels__through" on "labels__through"."work_order_id" = "orders"."id" left join "labels" on "labels"."id" = "labels__through"."label_id"',
      )
      expect(await all(perOrder)).toEqual([
        { id: 1, labels: 2 },
        { id: 2, labels: 0 },
        { id: 3, labels: 1 },
      ])
    })

    it('wrong paths, aggregates and shapes throw when the query is built', () => {
      expect(() => where(from(WorkOrder), 'customer.name' as never, '=', 'x' as never)).toThrow(
        "field customer.name: join 'customer' first (join or leftJoin)",
      )
      expect(() => join(from(WorkOrder), 'client' as never)).toThrow(
        'join client: schema orders has no association "client"',
      )
      expect(() => select(join(from(WorkOrder), 'customer'), ['customer.nope' as never])).toThrow(
        'field customer.nope: schema customers has no field "nope"',
      )
      expect(() => select(from(WorkOrder), { s: sum('title' as never) })).toThrow(
        'sum(title): title is a "string" field, not a number',
      )
      expect(() => having(from(WorkOrder), avg('status' as never), '>', 1)).toThrow(
        'avg(status): status is a {"enum":["open","done"]} field, not a number',
      )
      expect(() => select(from(LineItem), { x: sum(['quantity', '%' as never, 'unit_price']) })).toThrow(
        "sum: give a field or [field, '+' | '-' | '*' | '/', field]",
      )
      expect(() => select(from(WorkOrder), { 'a; drop': 'id' } as never)).toThrow(
        'output name "a; drop" must be letters, digits and _',
      )
      expect(() =>
        where(from(WorkOrder), 'customer_id', 'in', select(from(Customer), ['id', 'name']) as never),
      ).toThrow('the subquery must select exactly one column')
      expect(() => compileSelect(lock(distinct(from(WorkOrder)), 'for update'))).toThrow(
        'rows of a count, distinct, grouped or aggregate query cannot be locked',
      )
      expect(() => lock(from(WorkOrder), 'for everything' as never)).toThrow('lock: unknown mode')
      expect(() => leftJoin(join(from(WorkOrder), 'customer'), 'customer')).toThrow(
        'join customer: already joined as join',
      )
    })
  })
}
