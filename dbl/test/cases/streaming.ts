/**
 * `repo.stream` and `repo.paginate`: every row in order across batches, the connection given back
 * however a loop ends, streaming inside a transaction, pages by number and by cursor, and the
 * errors a client's bad input gets.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { from } from '../../query/builder.ts'
import { defineRepo } from '../../repo.ts'
import { PaginationError } from '../../pagination-error.ts'
import type { RecordOf } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Post, Product, User } from '../schemas.ts'

type ProductRow = RecordOf<typeof Product>

export function streamingCases(t: SuiteContext): void {
  // Prices repeat (ties broken by id) and every third description is null, so orderings by them
  // need every rule of the keyset.
  const seed = async (n: number) => {
    const rows = Array.from({ length: n }, (_, i) => ({
      name: `p${String(i + 1).padStart(3, '0')}`,
      price: (i * 7) % 5,
      description: i % 3 === 0 ? null : `d${i % 4}`,
    }))
    const res = await t.repo.insertAll(Product, rows)
    expect(res.ok).toBe(true)
  }
  const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
    const out: T[] = []
    for await (const x of it) out.push(x)
    return out
  }
  const names = (rows: readonly { name: string }[]) => rows.map((r) => r.name)

  describe('repo.stream', () => {
    it('yields every row in the order of repo.all, across batches, loaded as records', async () => {
      await seed(23)
      for (const q of [
        from(Product).orderBy(['price', 'desc'], 'id'),
        from(Product).orderBy('description', ['price', 'desc'], 'id'),
        from(Product).orderBy(['description', 'desc'], 'name'),
        from(Product).orderBy('price', 'description', ['id', 'desc']),
        from(Product).where('price', '>', 1).orderBy('name'),
      ]) {
        const streamed = await collect(t.repo.stream(q, { batchSize: 4 }))
        expect(names(streamed)).toEqual(names(await t.repo.all(q)))
      }
      const rows = await collect(t.repo.stream(from(Product), { batchSize: 5 }))
      expect(rows).toHaveLength(23)
      expect(rows[0]!.inserted_at).toBeInstanceOf(Date)
      expectTypeOf(rows).toEqualTypeOf<ProductRow[]>()
      // A select's rows, and the query's own limit and offset.
      const picked = await collect(
        t.repo.stream(from(Product).select(['id', 'name']).orderBy('id').limit(7).offset(2), { batchSize: 3 }),
      )
      expectTypeOf(picked[0]!.name).toEqualTypeOf<string>()
      expect(picked).toEqual(
        Array.from({ length: 7 }, (_, i) => ({ id: i + 3, name: `p${String(i + 3).padStart(3, '0')}` })),
      )
      expect(await collect(t.repo.stream(from(Product).where({ name: 'none' })))).toEqual([])
    })

    it('preloads associations batch by batch', async () => {
      const users = await t.repo.insertAll(User, [
        { name: 'Ann', email: 'ann@example.com' },
        { name: 'Bob', email: 'bob@example.com' },
        { name: 'Cy', email: 'cy@example.com' },
      ])
      if (!users.ok) throw users.error
      await t.repo.insertAll(Post, [
        { title: 'a1', user_id: users.value.rows[0]!.id },
        { title: 'a2', user_id: users.value.rows[0]!.id },
        { title: 'c1', user_id: users.value.rows[2]!.id },
      ])
      const rows = await collect(t.repo.stream(from(User).orderBy('id'), { batchSize: 2, preload: ['posts'] }))
      expect(rows.map((u) => [u.name, u.posts.map((p) => p.title)])).toEqual([
        ['Ann', ['a1', 'a2']],
        ['Bob', []],
        ['Cy', ['c1']],
      ])
    })

    it('gives its connection back when the loop breaks early or throws, many times over', async () => {
      await seed(10)
      // More loops than the PostgreSQL suite's pool has connections (4): a kept one would run out.
      for (let i = 0; i < 12; i++) {
        for await (const p of t.repo.stream(from(Product).orderBy('id'), { batchSize: 2 })) {
          expect(p.id).toBe(1)
          break
        }
      }
      for (let i = 0; i < 6; i++) {
        await expect(
          (async () => {
            for await (const _ of t.repo.stream(from(Product), { batchSize: 3 })) throw new Error(`stop ${i}`)
          })(),
        ).rejects.toThrow(`stop ${i}`)
      }
      // A stream that fails in the database gives its connection back too.
      for (let i = 0; i < 6; i++)
        await expect(collect(t.repo.stream(from(Product).where('price', '>', (2 ** 40) as never)))).rejects.toThrow()
      expect(await t.repo.count(from(Product))).toBe(10)
      if (t.adapter.kind === 'pg') {
        const { rows } = await t.adapter.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'",
        )
        expect(rows[0]!.n).toBe(0)
      }
      // The loop body may use the repo while a stream is open (another connection, or PGlite between batches).
      let seen = 0
      for await (const p of t.repo.stream(from(Product).orderBy('id'), { batchSize: 3 })) {
        const res = await t.repo.updateAll(from(Product).where({ id: p.id }), { price: 100 + p.id })
        expect(res).toEqual({ ok: true, value: { count: 1 } })
        seen++
      }
      expect(seen).toBe(10)
      expect((await t.repo.get(Product, 10))?.price).toBe(110)
    })

    it("inside repo.transaction reads on the transaction's connection, and the loop may write in it", async () => {
      await seed(5)
      const res = await t.repo.transaction(async () => {
        await t.repo.insertAll(Product, [{ name: 'uncommitted', price: 9 }])
        const seen: string[] = []
        for await (const p of t.repo.stream(from(Product).orderBy('id'), { batchSize: 2 })) {
          seen.push(p.name)
          await t.repo.insertAll(User, [{ name: p.name, email: `${p.name}@example.com` }])
        }
        for await (const _ of t.repo.stream(from(Product), { batchSize: 1 })) break
        t.repo.rollback(seen)
      })
      expect(res).toEqual({ ok: false, error: ['p001', 'p002', 'p003', 'p004', 'p005', 'uncommitted'] })
      expect(await t.count('users')).toBe(0)
      expect(await t.count('products')).toBe(5)
    })

    it('refuses a bad batchSize and a preload of partial rows', async () => {
      await expect(collect(t.repo.stream(from(Product), { batchSize: 0 }))).rejects.toThrow(/batchSize/)
      await expect(
        collect(t.repo.stream(from(User).select(['name']) as never, { preload: ['posts'] as never })),
      ).rejects.toThrow(/whole records/)
    })
  })

  describe('repo.paginate by page number', () => {
    it('gives pages, the total, the last page and an empty result', async () => {
      const empty = await t.repo.paginate(from(Product), { page: 1, pageSize: 3 })
      expect(empty).toEqual({ entries: [], page: 1, pageSize: 3, total: 0, totalPages: 1 })
      await seed(7)
      const q = from(Product).orderBy(['price', 'desc'], 'id')
      const ordered = names(await t.repo.all(q))
      const first = await t.repo.paginate(q, { page: 1, pageSize: 3 })
      expectTypeOf(first.entries).toEqualTypeOf<ProductRow[]>()
      expect({ ...first, entries: names(first.entries) }).toEqual({
        entries: ordered.slice(0, 3),
        page: 1,
        pageSize: 3,
        total: 7,
        totalPages: 3,
      })
      // Numbers as a query string holds them.
      const last = await t.repo.paginate(q, { page: '3', pageSize: '3' })
      expect(names(last.entries)).toEqual(ordered.slice(6))
      expect((await t.repo.paginate(q, { page: 4, pageSize: 3 })).entries).toEqual([])
      // Without an ordering, pages follow the primary key; the defaults are page 1 of 20.
      const all = await t.repo.paginate(from(Product).where('price', '>=', 0))
      expect(all.entries.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7])
      expect(all.pageSize).toBe(20)
    })

    it('refuses bad numbers with a 400 PaginationError', async () => {
      for (const opts of [
        { page: 0 },
        { page: 'abc' },
        { page: 1.5 },
        { pageSize: 101 },
        { pageSize: 10, maxPageSize: 5 },
        { page: -1 },
      ]) {
        const e = await t.repo.paginate(from(Product), opts).catch((x: unknown) => x)
        expect(e).toBeInstanceOf(PaginationError)
        expect(e).toMatchObject({ status: 400, expose: true, code: 'VELA_ERR_BAD_PAGINATION' })
      }
      await expect(t.repo.paginate(from(Product).limit(5), { page: 1 })).rejects.toThrow(/no limit or offset/)
    })
  })

  describe('repo.paginate by cursor', () => {
    it('walks every row in order, page after page, with the statement cached', async () => {
      await seed(11)
      const events: string[] = []
      const logged = defineRepo({ adapter: t.adapter, log: (e) => events.push(e.query) })
      for (const q of [
        from(Product).orderBy('id'),
        from(Product).orderBy(['price', 'desc'], 'id'),
        from(Product).orderBy('description', ['id', 'desc']),
        from(Product).orderBy(['description', 'desc'], 'id'),
        from(Product).select(['id', 'price']).orderBy('price', 'id'),
      ]) {
        const expected = (await t.repo.all(q)).map((p) => p.id)
        const seen: number[] = []
        let after: string | null = null
        let pages = 0
        do {
          const page: { entries: { id: number }[]; after: string | null; limit: number } = await logged.paginate(q, {
            after,
            limit: 4,
          })
          expect(page.limit).toBe(4)
          seen.push(...page.entries.map((p) => p.id))
          after = page.after
          pages++
        } while (after)
        expect(seen).toEqual(expected)
        expect(pages).toBe(3)
      }
      // Pages after the first of one query, with non-null values, are one statement text.
      events.length = 0
      const q = from(Product).orderBy('id')
      const p1 = await logged.paginate(q, { limit: 2 })
      const p2 = await logged.paginate(q, { after: p1.after, limit: 2 })
      await logged.paginate(q, { after: p2.after, limit: 2 })
      expect(events[1]).toBe(events[2])
    })

    it('is stable when rows are inserted before the cursor', async () => {
      await seed(6)
      const q = from(Product).orderBy(['name', 'desc'], 'id')
      const first = await t.repo.paginate(q, { limit: 3 })
      expect(names(first.entries)).toEqual(['p006', 'p005', 'p004'])
      // Rows that sort before the cursor: the second page by offset now repeats p005 and p004.
      await t.repo.insertAll(Product, [
        { name: 'p999', price: 1 },
        { name: 'p998', price: 1 },
      ])
      const second = await t.repo.paginate(q, { after: first.after, limit: 3 })
      expect(names(second.entries)).toEqual(['p003', 'p002', 'p001'])
      expect(second.after).toBeNull()
      expect(names((await t.repo.paginate(q, { page: 2, pageSize: 3 })).entries)).toEqual(['p005', 'p004', 'p003'])
    })

    it('refuses an invalid cursor with a 400 PaginationError, and a query not ordered by its key', async () => {
      await seed(4)
      const q = from(Product).orderBy('price', 'id')
      const { after } = await t.repo.paginate(q, { limit: 2 })
      if (!after) throw new Error('expected a next page')
      const decoded = JSON.parse(Buffer.from(after, 'base64url').toString()) as unknown[]
      const forged = (v: unknown[]) => Buffer.from(JSON.stringify(v)).toString('base64url')
      for (const bad of [
        'not a cursor!',
        'eyJ',
        forged(['abcdefgh', 1, 2]),
        forged([decoded[0], 'cheap', 2]),
        forged([decoded[0], 1]),
        forged([decoded[0], 1, null]),
        `${after}x`,
      ]) {
        const e = await t.repo.paginate(q, { after: bad, limit: 2 }).catch((x: unknown) => x)
        expect(e, bad).toBeInstanceOf(PaginationError)
        expect(e).toMatchObject({ status: 400, param: 'after' })
      }
      // A cursor of another ordering.
      const other = await t.repo
        .paginate(from(Product).orderBy(['price', 'desc'], 'id'), { after, limit: 2 })
        .catch((x: unknown) => x)
      expect(other).toBeInstanceOf(PaginationError)
      await expect(t.repo.paginate(q, { limit: 0 })).rejects.toBeInstanceOf(PaginationError)
      // The code's mistakes are plain errors (500), not the client's.
      const unordered = await t.repo.paginate(from(Product).orderBy('price'), { limit: 2 }).catch((x: unknown) => x)
      expect(unordered).not.toBeInstanceOf(PaginationError)
      expect(String(unordered)).toMatch(/ending in the primary key/)
      await expect(t.repo.paginate(from(Product).select(['name']).orderBy('id'), { limit: 2 })).rejects.toThrow(
        /select it too/,
      )
    })
  })
}
