/**
 * Queries beyond joins and aggregates: set operations, CTEs, window functions, DISTINCT ON,
 * `between`, full-text search and `sql` fragments. Each feature's rows are checked row by row, on
 * every backend of the suite.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { sum } from '../../query/aggregate.ts'
import { from } from '../../query/builder.ts'
import { between, notBetween } from '../../query/conditions.ts'
import { cte } from '../../query/cte.ts'
import { field, sql } from '../../query/fragment.ts'
import { textSearch, tsRank } from '../../query/text-search.ts'
import { count } from '../../query/operators.ts'
import { denseRank, over, rank, rowNumber } from '../../query/window.ts'
import { except, intersect, union, unionAll } from '../../query/set-ops.ts'
import type { Query } from '../../query/types.ts'
import type { AnySchema, RecordOf } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Customer, Label, LineItem, WorkOrder } from '../schemas-queries.ts'

export function sqlBreadthCases(t: SuiteContext): void {
  describe('set operations, CTEs, windows, DISTINCT ON, between, full-text search, sql fragments', () => {
    const all = <S extends AnySchema, R, J>(q: Query<S, R, J>): Promise<R[]> => t.repo.all(q)
    // Acme (pro): #1 open (30 min) with two items, #2 done (60 min) with one; Bolt (free): #3 open, no items;
    // Cargo (pro): no orders. Labels: Acme, urgent.
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
          { title: 'Fix the leaking pump', status: 'open', estimate_minutes: 30, customer_id: 1 },
          { title: 'Paint the wall', status: 'done', estimate_minutes: 60, customer_id: 1 },
          { title: 'Wire the panel', status: 'open', estimate_minutes: null, customer_id: 2 },
        ]),
      )
      ok(
        await t.repo.insertAll(LineItem, [
          { work_order_id: 1, description: 'pipe', quantity: 2, unit_price: 150, discount: 0.5 },
          { work_order_id: 1, description: 'valve', quantity: 1, unit_price: 900, discount: null },
          { work_order_id: 2, description: 'paint', quantity: 4, unit_price: 250, discount: 1.25 },
        ]),
      )
      ok(await t.repo.insertAll(Label, [{ name: 'Acme' }, { name: 'urgent' }]))
    }

    it('union, unionAll: rows of both queries, sorted and limited as a whole; values bound', async () => {
      await seed()
      const names = (tier: 'free' | 'pro') =>
        from(Customer)
          .where('tier', '=', tier)
          .select(['name'])
          .union(from(Label).select(['name']))
          .orderBy('name')
      const rows = await all(names('pro'))
      expectTypeOf(rows[0]!.name).toEqualTypeOf<string>()
      expect(rows).toEqual([{ name: 'Acme' }, { name: 'Cargo' }, { name: 'urgent' }])
      expect(await all(names('free').limit(2))).toEqual([{ name: 'Acme' }, { name: 'Bolt' }])
      const twice = await all(unionAll(from(Customer).select(['name']), from(Label).select(['name'])).orderBy('name'))
      expect(twice.map((r) => r.name)).toEqual(['Acme', 'Acme', 'Bolt', 'Cargo', 'urgent'])
      expect(await t.repo.count(names('pro'))).toBe(3)
      expect(await t.repo.count(union(from(Customer).select(['name']), from(Label).select(['name'])))).toBe(4)
    })

    it('intersect, except: customers with and without a work order', async () => {
      await seed()
      const ids = from(Customer).select(['id'])
      const ordered = from(WorkOrder).select({ id: 'customer_id' })
      expect(await all(intersect(ids, ordered).orderBy('id'))).toEqual([{ id: 1 }, { id: 2 }])
      expect(await all(except(ids, ordered))).toEqual([{ id: 3 }])
      // Whole records combine too (the same schema on both sides).
      const open = from(WorkOrder).where('status', '=', 'open')
      const mine = from(WorkOrder).where('customer_id', '=', 1)
      expect((await all(intersect(open, mine))).map((r) => r.title)).toEqual(['Fix the leaking pump'])
    })

    it('cte: a later query selects from a named query, typed by its rows', async () => {
      await seed()
      const totals = (min: number) =>
        cte(
          'totals',
          from(LineItem)
            .where('quantity', '>=', min)
            .groupBy(['work_order_id'])
            .select({ work_order_id: 'work_order_id', total: sum(['quantity', '*', 'unit_price']) }),
        )
      const big = (min: number, over: number) => from(totals(min)).where('total', '>', over).orderBy(['total', 'desc'])
      const rows = await all(big(1, 500))
      expectTypeOf(rows).toEqualTypeOf<{ readonly work_order_id: number; readonly total: number | null }[]>()
      expect(rows).toEqual([
        { work_order_id: 1, total: 1200 },
        { work_order_id: 2, total: 1000 },
      ])
      expect(await all(big(2, 0))).toEqual([
        { work_order_id: 2, total: 1000 },
        { work_order_id: 1, total: 300 },
      ])
      expect(await t.repo.count(big(1, 1100))).toBe(1)
      // A CTE over a CTE, selected in a subquery: customers with two open orders or more… or one.
      const open = cte('open_orders', from(WorkOrder).where('status', '=', 'open').select(['id', 'customer_id']))
      const perCustomer = cte(
        'per_customer',
        from(open).groupBy(['customer_id']).select({ customer_id: 'customer_id', n: count() }),
      )
      const withOpen = from(Customer)
        .where('id', 'in', from(perCustomer).where('n', '>=', 1).select(['customer_id']))
        .orderBy('id')
      expect((await all(withOpen)).map((c) => c.name)).toEqual(['Acme', 'Bolt'])
      // Its enum field is still checked and typed.
      const statuses = await all(
        from(cte('st', from(WorkOrder).select(['status'])))
          .distinct()
          .orderBy('status'),
      )
      expectTypeOf(statuses).toEqualTypeOf<{ readonly status: 'open' | 'done' }[]>()
      expect(statuses).toEqual([{ status: 'done' }, { status: 'open' }])
    })

    it('window functions: rankings per partition and aggregates over a window, with an alias', async () => {
      await seed()
      const ranked = (status: 'open' | 'done') =>
        from(WorkOrder)
          .where('status', '!=', status)
          .select({
            title: 'title',
            nth: rowNumber({ partitionBy: ['customer_id'], orderBy: [['id', 'desc']] }),
            place: rank({ orderBy: [['customer_id', 'asc']] }),
            dense: denseRank({ orderBy: ['customer_id'] }),
          })
          .orderBy('title')
      const rows = await all(ranked('done'))
      expectTypeOf(rows).toEqualTypeOf<
        { readonly title: string; readonly nth: number; readonly place: number; readonly dense: number }[]
      >()
      expect(rows).toEqual([
        { title: 'Fix the leaking pump', nth: 1, place: 1, dense: 1 },
        { title: 'Wire the panel', nth: 1, place: 2, dense: 2 },
      ])
      expect(await all(ranked('open').orderBy('nth'))).toEqual([
        { title: 'Paint the wall', nth: 1, place: 1, dense: 1 },
      ])
      // Every order, ranked and numbered.
      const all3 = await all(
        from(WorkOrder)
          .select({
            id: 'id',
            nth: rowNumber({ partitionBy: ['customer_id'], orderBy: [['id', 'desc']] }),
            place: rank({ orderBy: ['customer_id'] }),
            dense: denseRank({ orderBy: ['customer_id'] }),
          })
          .orderBy('id'),
      )
      expect(all3).toEqual([
        { id: 1, nth: 2, place: 1, dense: 1 },
        { id: 2, nth: 1, place: 1, dense: 1 },
        { id: 3, nth: 1, place: 3, dense: 2 },
      ])
      const lines = await all(
        from(LineItem)
          .select({
            id: 'id',
            orderTotal: over(sum('quantity'), { partitionBy: ['work_order_id'] }),
            running: over(sum(['quantity', '*', 'unit_price']), { orderBy: ['id'] }),
            n: over(count(), { partitionBy: ['work_order_id'] }),
          })
          .orderBy('id'),
      )
      expectTypeOf(lines).toEqualTypeOf<
        {
          readonly id: number
          readonly orderTotal: number | null
          readonly running: number | null
          readonly n: number
        }[]
      >()
      expect(lines).toEqual([
        { id: 1, orderTotal: 3, running: 300, n: 2 },
        { id: 2, orderTotal: 3, running: 1200, n: 2 },
        { id: 3, orderTotal: 4, running: 2200, n: 1 },
      ])
      // A window's output, filtered through a CTE: each customer's latest order.
      const numbered = cte(
        'numbered',
        from(WorkOrder).select({
          id: 'id',
          title: 'title',
          nth: rowNumber({ partitionBy: ['customer_id'], orderBy: [['id', 'desc']] }),
        }),
      )
      expect(await all(from(numbered).where('nth', '=', 1).select(['title']).orderBy('title'))).toEqual([
        { title: 'Paint the wall' },
        { title: 'Wire the panel' },
      ])
    })

    it('distinctOn: the first row of each customer by the order', async () => {
      await seed()
      const latest = (status: 'open' | 'done') =>
        from(WorkOrder).where('status', '!=', status).distinctOn(['customer_id']).orderBy('customer_id', ['id', 'desc'])
      expect((await all(latest('done'))).map((r) => [r.customer_id, r.title])).toEqual([
        [1, 'Fix the leaking pump'],
        [2, 'Wire the panel'],
      ])
      const everyone = from(WorkOrder).distinctOn(['customer_id']).select(['id', 'customer_id'])
      expect(await all(everyone.orderBy('customer_id', ['id', 'desc']))).toEqual([
        { id: 2, customer_id: 1 },
        { id: 3, customer_id: 2 },
      ])
      expect(await all(everyone.orderBy('customer_id', 'id'))).toEqual([
        { id: 1, customer_id: 1 },
        { id: 3, customer_id: 2 },
      ])
      expect(await t.repo.count(everyone)).toBe(2)
      // PostgreSQL's own rule: the order must start with the DISTINCT ON fields.
      await expect(all(everyone.orderBy('id'))).rejects.toMatchObject({ code: '42P10' })
    })

    it('between, notBetween: bounds included, values bound', async () => {
      await seed()
      const titles = async <J>(q: Query<typeof WorkOrder, { readonly title: string }, J>) =>
        (await all(q)).map((r) => r.title)
      expect(
        await titles(
          from(WorkOrder)
            .where(between('estimate_minutes', 30, 60))
            .orderBy('id'),
        ),
      ).toEqual(['Fix the leaking pump', 'Paint the wall'])
      expect(
        await titles(
          from(WorkOrder)
            .where(between('estimate_minutes', 31, 60))
            .orderBy('id'),
        ),
      ).toEqual(['Paint the wall'])
      // A null field is neither between nor not between.
      expect(
        await titles(
          from(WorkOrder)
            .where(notBetween('estimate_minutes', 31, 60))
            .orderBy('id'),
        ),
      ).toEqual(['Fix the leaking pump'])
      expect(
        await titles(
          from(WorkOrder)
            .join('customer')
            .where(between('customer.name', 'B', 'C'))
            .orderBy('id'),
        ),
      ).toEqual(['Wire the panel'])
      expect((await t.repo.deleteAll(from(LineItem).where(between('quantity', 2, 4)))).ok).toBe(true)
      expect(await t.count('order_lines')).toBe(1)
    })

    it('full-text search: matching words of several fields, ranked; the search text bound', async () => {
      await seed()
      const search = (text: string) =>
        from(WorkOrder)
          .where(textSearch(['title', 'status'], text))
          .select({ title: 'title', rank: tsRank(['title', 'status'], text) })
          .orderBy(['rank', 'desc'], 'title')
      // Stems match: "pumps" finds "pump", "painting" finds "Paint".
      const pumps = await all(search('pumps'))
      expectTypeOf(pumps).toEqualTypeOf<{ readonly title: string; readonly rank: number }[]>()
      expect(pumps.map((r) => r.title)).toEqual(['Fix the leaking pump'])
      expect(pumps[0]!.rank).toBeGreaterThan(0)
      expect((await all(search('painting or wire'))).map((r) => r.title).sort()).toEqual([
        'Paint the wall',
        'Wire the panel',
      ])
      // The status field is part of the document; "-leaking" leaves that order out.
      expect((await all(search('open -leaking'))).map((r) => r.title)).toEqual(['Wire the panel'])
      // More matching words rank higher.
      const ranked = await all(search('open or pump'))
      expect(ranked.map((r) => r.title)).toEqual(['Fix the leaking pump', 'Wire the panel'])
      expect(ranked[0]!.rank).toBeGreaterThan(ranked[1]!.rank)
      // Quotes and operators in the text are data: a phrase, or nothing, never an error.
      expect((await all(search('"the leaking pump"'))).map((r) => r.title)).toEqual(['Fix the leaking pump'])
      expect(await all(search("'); drop table orders; --"))).toEqual([])
      expect(
        (
          await all(from(WorkOrder).where(textSearch('title', 'wall paint', { mode: 'plain', language: 'simple' })))
        ).map((r) => r.title),
      ).toEqual(['Paint the wall'])
      const phrase = (text: string) => all(from(WorkOrder).where(textSearch('title', text, { mode: 'phrase' })))
      expect((await phrase('painting the wall')).map((r) => r.title)).toEqual(['Paint the wall'])
      expect(await phrase('wall paint')).toEqual([])
    })

    it('sql fragments: in where, select and orderBy, fields quoted, values bound', async () => {
      await seed()
      const byName = (name: string) =>
        from(Customer)
          .where(sql`lower(${field('name')}) = ${name}`)
          .select({ id: 'id', shout: sql<string>`upper(${field('name')}) || ${'!'}` })
      const rows = await all(byName('acme'))
      expectTypeOf(rows).toEqualTypeOf<{ readonly id: number; readonly shout: string }[]>()
      expect(rows).toEqual([{ id: 1, shout: 'ACME!' }])
      expect(await all(byName('bolt'))).toEqual([{ id: 2, shout: 'BOLT!' }])
      // Quotes in a value are data.
      expect(await all(byName("acme' or '1'='1"))).toEqual([])
      // A joined field, a fragment as a sort term, a fragment nested in another.
      const longest = await all(
        from(WorkOrder)
          .join('customer')
          .where(sql`${field('customer.tier')} = ${'pro'}`)
          .select({ title: 'title', len: sql<number>`length(${field('title')})` })
          .orderBy([sql`length(${field('title')})`, 'desc']),
      )
      expect(longest).toEqual([
        { title: 'Fix the leaking pump', len: 20 },
        { title: 'Paint the wall', len: 14 },
      ])
      const minutes = sql`coalesce(${field('estimate_minutes')}, ${0})`
      expect((await all(from(WorkOrder).where(sql`${minutes} < ${45}`).orderBy('id'))).map((r) => r.id)).toEqual([1, 3])
      expect((await t.repo.updateAll(from(Customer).where(sql`${field('id')} % ${2} = 0`), { tier: 'pro' })).ok).toBe(
        true,
      )
      expect((await all(from(Customer).where('tier', '=', 'free'))).length).toBe(0)
    })

    it('insertAll returning chosen fields: only those come back, typed', async () => {
      const r = await t.repo.insertAll(
        Customer,
        [
          { name: 'Acme', tier: 'pro' },
          { name: 'Bolt', tier: 'free' },
        ],
        { returning: ['id', 'tier'] },
      )
      if (!r.ok) throw new Error('insert failed')
      expectTypeOf(r.value.rows).toEqualTypeOf<Pick<RecordOf<typeof Customer>, 'id' | 'tier'>[]>()
      expect(r.value).toEqual({
        count: 2,
        rows: [
          { id: 1, tier: 'pro' },
          { id: 2, tier: 'free' },
        ],
      })
      const none = await t.repo.insertAll(Label, [{ name: 'x' }], { returning: [] })
      expect(none).toEqual({ ok: true, value: { count: 1, rows: [] } })
      expect(await t.count('labels')).toBe(1)
      // @ts-expect-error not a field
      await expect(t.repo.insertAll(Label, [{ name: 'y' }], { returning: ['nope'] })).rejects.toThrow(
        'insertAll: returning: schema labels has no stored field "nope"',
      )
      expect(await t.count('labels')).toBe(1)
    })
  })
}
