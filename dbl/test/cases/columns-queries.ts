/**
 * Queries over fields stored under other column names (schemas-columns.ts): conditions, ordering,
 * select lists, grouping and aggregates, fragments, subqueries, joins, CTEs, preloads (the
 * manyToMany one through its join table), streams and pages. Each compiled statement is checked
 * to name the columns, and the rows to be keyed by field.
 */
import { describe, expect, it } from 'vitest'
import { putAssoc } from '../../assoc.ts'
import { change } from '../../changeset.ts'
import { sum } from '../../query/aggregate.ts'
import { from } from '../../query/builder.ts'
import { compileSelect } from '../../query/compile.ts'
import { cte } from '../../query/cte.ts'
import { field, sql } from '../../query/fragment.ts'
import { count } from '../../query/operators.ts'
import type { SuiteContext } from '../suite-context.ts'
import { CnLabel, CnPost, CnWriter } from '../schemas-columns.ts'

export function columnQueryCases(t: SuiteContext): void {
  // Ann wrote a (1 word) and c (5); Bob wrote b (3). Written straight into the columns, as another program would.
  const seed = async () => {
    await t.adapter.query(`insert into cn_writers (writer_id, full_name) values (1, 'Ann'), (2, 'Bob')`)
    await t.adapter.query(
      `insert into cn_posts (post_title, word_count, writer_ref) values ('a', 1, 1), ('b', 3, 2), ('c', 5, 1)`,
    )
    const ann = (await t.repo.get(CnWriter, 1))!
    return { ann, posts: await t.repo.all(from(CnPost).orderBy('id')) }
  }
  const titles = (rows: readonly { title: string }[]) => rows.map((r) => r.title)

  describe('fields stored under other column names: queries', () => {
    it('where, orderBy, limit and count name the columns; rows are keyed by field', async () => {
      await seed()
      const q = from(CnPost).where('words', '>', 1).orderBy(['words', 'desc'])
      expect(compileSelect(q).sql).toBe(
        'select "id", "post_title" as "title", "word_count" as "words", "writer_ref" as "author_id", "meta_json" as "meta", "tag_list" as "tags", "link_list" as "links", "removed_on" as "removed_at" from "cn_posts" where "word_count" > $1 and "removed_on" is null order by "word_count" desc',
      )
      const rows = await t.repo.all(q)
      expect(titles(rows)).toEqual(['c', 'b'])
      expect(Object.keys(rows[0]!)).toEqual([
        'id',
        'title',
        'words',
        'author_id',
        'meta',
        'tags',
        'links',
        'removed_at',
      ])
      expect(await t.repo.count(from(CnPost).where({ title: 'a' }))).toBe(1)
      expect(titles(await t.repo.all(from(CnPost).where('title', 'in', ['a', 'c']).orderBy('title').limit(1)))).toEqual(
        ['a'],
      )
    })

    it('select lists, groupBy with aggregates, sql fragments and subqueries', async () => {
      const { ann } = await seed()
      expect(await t.repo.all(from(CnPost).select(['title', 'words']).orderBy('title'))).toEqual([
        { title: 'a', words: 1 },
        { title: 'b', words: 3 },
        { title: 'c', words: 5 },
      ])
      expect(await t.repo.all(from(CnPost).select({ name: 'title', n: 'words' }).where('title', '=', 'b'))).toEqual([
        { name: 'b', n: 3 },
      ])
      const grouped = from(CnPost)
        .groupBy(['author_id'])
        .select({ author_id: 'author_id', posts: count(), total: sum('words') })
        .orderBy('author_id')
      expect(compileSelect(grouped).sql).toContain('group by "writer_ref"')
      expect(await t.repo.all(grouped)).toEqual([
        { author_id: ann.id, posts: 2, total: 6 },
        { author_id: ann.id + 1, posts: 1, total: 3 },
      ])
      const upper = from(CnPost).where(sql`upper(${field('title')}) = ${'B'}`)
      expect(titles(await t.repo.all(upper))).toEqual(['b'])
      const byAnn = from(CnPost)
        .where('author_id', 'in', from(CnWriter).where({ name: 'Ann' }).select(['id']))
        .orderBy('title')
      expect(compileSelect(byAnn).sql).toContain(
        'where "cn_posts"."writer_ref" in (select "cn_writers"."writer_id" as "id" from "cn_writers" where "cn_writers"."full_name" = $1)',
      )
      expect(titles(await t.repo.all(byAnn))).toEqual(['a', 'c'])
    })

    it('joins through belongsTo and hasMany use the key columns; joined fields nest by field name', async () => {
      await seed()
      const q = from(CnPost)
        .join('author')
        .where('author.name', '=', 'Ann')
        .select(['title', 'author.name'])
        .orderBy('title')
      expect(compileSelect(q).sql).toContain(
        'inner join "cn_writers" as "author" on "author"."writer_id" = "cn_posts"."writer_ref"',
      )
      expect(await t.repo.all(q)).toEqual([
        { title: 'a', author: { name: 'Ann' } },
        { title: 'c', author: { name: 'Ann' } },
      ])
      const busy = from(CnWriter)
        .join('posts')
        .where('posts.words', '>=', 3)
        .select(['name'])
        .distinct()
        .orderBy('name')
      expect(await t.repo.all(busy)).toEqual([{ name: 'Ann' }, { name: 'Bob' }])
    })

    it('a CTE over the schema takes its output under the field names', async () => {
      await seed()
      const long = cte('long_posts', from(CnPost).where('words', '>', 2).select({ title: 'title', words: 'words' }))
      expect(await t.repo.all(from(long).where('words', '<', 5))).toEqual([{ title: 'b', words: 3 }])
    })

    it('preloads belongsTo, hasMany and manyToMany (putAssoc writes the join table)', async () => {
      const { ann, posts } = await seed()
      const labels = await t.repo.insertAll(CnLabel, [
        { code: 'x', name: 'Ex' },
        { code: 'y', name: 'Why' },
      ])
      expect(labels.ok && labels.value.rows).toEqual([
        { code: 'x', name: 'Ex' },
        { code: 'y', name: 'Why' },
      ])
      const [a] = posts
      const linked = await t.repo.update(putAssoc(change(CnPost, a!, { words: 2 }), 'labels', ['x', 'y']))
      expect(linked.ok).toBe(true)
      expect(await t.adapter.query('select label from cn_post_labels order by label').then((r) => r.rows)).toEqual([
        { label: 'x' },
        { label: 'y' },
      ])
      const [withAll] = await t.repo.preload(CnPost, [a!], ['author', 'labels'])
      expect(withAll!.author).toEqual(await t.repo.get(CnWriter, ann.id))
      expect(withAll!.labels).toEqual([
        { code: 'x', name: 'Ex' },
        { code: 'y', name: 'Why' },
      ])
      const [writer] = await t.repo.preload(CnWriter, [ann], ['posts'])
      expect(titles(writer!.posts as { title: string }[])).toEqual(['a', 'c'])
      const joined = from(CnPost).join('labels').where('labels.name', '=', 'Why').select(['title'])
      expect(await t.repo.all(joined)).toEqual([{ title: 'a' }])
    })

    it('stream and paginate (by page and by cursor) read the columns', async () => {
      await seed()
      const streamed: string[] = []
      for await (const p of t.repo.stream(from(CnPost).orderBy('title'), { batchSize: 2 })) streamed.push(p.title)
      expect(streamed).toEqual(['a', 'b', 'c'])
      const page = await t.repo.paginate(from(CnPost).orderBy(['words', 'desc']), { page: 2, pageSize: 2 })
      expect(titles(page.entries)).toEqual(['a'])
      expect(page.total).toBe(3)
      const q = from(CnPost).orderBy('words', 'id')
      const first = await t.repo.paginate(q, { limit: 2 })
      expect(titles(first.entries)).toEqual(['a', 'b'])
      const next = await t.repo.paginate(q, { limit: 2, after: first.after })
      expect(titles(next.entries)).toEqual(['c'])
    })
  })
}
