import { describe, expect, expectTypeOf, it } from 'vitest'
import { from, type RowOf } from './builder.ts'
import { compileSelectKeyed } from './compile.ts'
import { textSearch, tsRank } from './text-search.ts'
import { WorkOrder } from '../test/schemas-queries.ts'

describe('textSearch, tsRank', () => {
  const search = (text: string) =>
    from(WorkOrder)
      .where(textSearch(['title', 'status'], text))
      .select({ id: 'id', rank: tsRank(['title', 'status'], text) })
      .orderBy(['rank', 'desc'], 'id')
      .limit(10)

  it('matches to_tsvector against the parsed search text, which is a parameter; rank is a number', () => {
    expectTypeOf<RowOf<ReturnType<typeof search>>>().toEqualTypeOf<{ readonly id: number; readonly rank: number }>()
    const s = compileSelectKeyed(search('pump'))
    expect(s.sql).toBe(
      `select "id", ts_rank(to_tsvector('english', coalesce("title", '') || ' ' || coalesce("status", '')), websearch_to_tsquery('english', $1)) as "rank" from "orders" where to_tsvector('english', coalesce("title", '') || ' ' || coalesce("status", '')) @@ websearch_to_tsquery('english', $2) order by "rank" desc, "id" asc limit $3`,
    )
    expect(s.params).toEqual(['pump', 'pump', 10])
    const one = compileSelectKeyed(
      from(WorkOrder)
        .join('customer')
        .where(textSearch('customer.name', "o'hara", { language: 'simple', mode: 'plain' })),
    )
    expect(one.sql).toContain(`where to_tsvector('simple', "customer"."name") @@ plainto_tsquery('simple', $1)`)
    expect(one.params).toEqual(["o'hara"])
  })

  it('two searches with different text share one statement; another language or mode is another', () => {
    const a = compileSelectKeyed(search('pump'))
    const b = compileSelectKeyed(search('"leaking pump" -wall'))
    expect(b.key).toBe(a.key)
    expect(b.sql).toBe(a.sql)
    expect(b.params).toEqual(['"leaking pump" -wall', '"leaking pump" -wall', 10])
    const phrase = compileSelectKeyed(from(WorkOrder).where(textSearch('title', 'x', { mode: 'phrase' })))
    expect(phrase.sql).toContain(`phraseto_tsquery('english', $1)`)
    expect(phrase.key).not.toBe(compileSelectKeyed(from(WorkOrder).where(textSearch('title', 'x'))).key)
  })

  it('refuses a language that is not a plain name, a bad mode, unknown fields, non-text searches', () => {
    expect(() => textSearch('title', 'x', { language: "english'); drop table x; --" })).toThrow(
      'must be a text search configuration name',
    )
    // @ts-expect-error a bad mode
    expect(() => textSearch('title', 'x', { mode: 'regex' })).toThrow('mode "regex" is not websearch, plain or phrase')
    // @ts-expect-error not a field
    expect(() => from(WorkOrder).where(textSearch('nope', 'x'))).toThrow('has no field "nope"')
    // @ts-expect-error a number
    expect(() => textSearch('title', 5)).toThrow('the search text must be a string')
  })
})
