/**
 * LIKE / ILIKE: text from a user searched with `{ contains | startsWith | endsWith }` matches
 * itself, `%`, `_` and `\` included (a search for `abc\` used to be a PostgreSQL error, and a 500);
 * a pattern stays a pattern, and a malformed one throws when the query is built instead of failing
 * in PostgreSQL depending on the rows.
 */
import { describe, expect, it } from 'vitest'
import { escapeLike } from '../../query/conditions.ts'
import type { LikeText } from '../../query/types.ts'
import { from } from '../../query/builder.ts'
import { orderBy, where } from '../../query/operators.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Product } from '../schemas.ts'
import { productCs } from './read-write.ts'

const names = ['back\\slash\\', '100% cotton', '100 cottons', 'a_b', 'axb', 'Tea', 'tea\\']

export function likeCases(t: SuiteContext): void {
  describe('LIKE with text from a user', () => {
    const found = async (op: 'like' | 'ilike' | 'not like' | 'not ilike', text: string | LikeText) => {
      const r = await t.repo.all(orderBy(where(from(Product), 'name', op, text), 'id'))
      return r.map((p) => p.name)
    }
    const seed = async () => {
      for (const [i, name] of names.entries())
        expect((await t.repo.insert(productCs({ name, price: i }))).ok).toBe(true)
    }

    it('contains / startsWith / endsWith match the text literally: %, _ and a trailing backslash included', async () => {
      await seed()
      expect(await found('like', { contains: 'abc\\' })).toEqual([])
      expect(await found('like', { endsWith: '\\' })).toEqual(['back\\slash\\', 'tea\\'])
      expect(await found('like', { contains: 'slash\\' })).toEqual(['back\\slash\\'])
      expect(await found('like', { contains: '%' })).toEqual(['100% cotton'])
      expect(await found('like', { contains: '_' })).toEqual(['a_b'])
      expect(await found('ilike', { startsWith: 'TEA' })).toEqual(['Tea', 'tea\\'])
      expect(await found('not ilike', { contains: 'cotton' })).toEqual(['back\\slash\\', 'a_b', 'axb', 'Tea', 'tea\\'])
      expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\')
    })

    it('a pattern keeps its wildcards; one ending in a lone backslash throws when built, whatever the rows', async () => {
      await seed()
      expect(await found('like', '100%')).toEqual(['100% cotton', '100 cottons'])
      expect(await found('like', 'a_b')).toEqual(['a_b', 'axb'])
      expect(await found('like', `%${escapeLike('\\')}`)).toEqual(['back\\slash\\', 'tea\\'])
      expect(await found('like', 'tea\\\\')).toEqual(['tea\\'])
      // What `%${req.query.q}` builds from q = 'cotton\'. PostgreSQL refuses it (22025) only once a
      // row matches up to the lone backslash; without 'cotton' in the table it would find nothing.
      expect(() => where(from(Product), 'name', 'like', '%cotton\\')).toThrow(
        'where name like "%cotton\\\\": the pattern ends with a lone escape character (\\); for text a user typed, use { contains: text } (or escapeLike(text))',
      )
      expect(() => where(from(Product), 'name', 'ilike', 'a\\\\\\')).toThrow('lone escape character')
      expect(await t.count('products')).toBe(names.length)
    })

    it('anything else as the value is a programming error, thrown when the query is built', () => {
      expect(() => where(from(Product), 'name', 'like', { contains: 5 } as never)).toThrow(
        'where name like: give a pattern string or one of { contains | startsWith | endsWith: string }',
      )
      expect(() => where(from(Product), 'name', 'ilike', { contains: 'a', endsWith: 'b' } as never)).toThrow(
        'give a pattern string',
      )
      expect(() => where(from(Product), 'name', 'like', 7 as never)).toThrow('give a pattern string')
    })
  })
}
