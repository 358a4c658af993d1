/**
 * Fields stored under other column names (schemas-columns.ts): the tables have the columns, every
 * write reaches them, records come back keyed by field, and constraint errors and audit rows name
 * the field. Rows are read straight through the adapter, so what is in the columns is checked.
 */
import { describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { assocConstraint, foreignKeyConstraint, uniqueConstraint } from '../../constraints.ts'
import { from } from '../../query/builder.ts'
import type { SuiteContext } from '../suite-context.ts'
import { CnPost, CnWriter } from '../schemas-columns.ts'

const json = (e: unknown) => errorsToJson(e as Changeset)
const postFields = ['id', 'title', 'words', 'author_id', 'meta', 'tags', 'links', 'removed_at']

export function columnCases(t: SuiteContext): void {
  const raw = async (sql: string, params: unknown[] = []) => (await t.adapter.query(sql, params)).rows
  const writer = async (name: string) => {
    const r = await t.repo.insert(cast(CnWriter, {}, { name }, ['name']))
    if (!r.ok) throw new Error(`writer ${name} not inserted`)
    return r.value
  }
  const post = (params: Record<string, unknown>) =>
    cast(CnPost, {}, params, ['title', 'words', 'author_id', 'meta', 'tags'])

  describe('fields stored under other column names: writes', () => {
    it('the generated tables have the columns, the foreign key and the index under the column names', async () => {
      const cols = await raw(
        `select column_name from information_schema.columns where table_name = 'cn_posts' order by ordinal_position`,
      )
      expect(cols.map((c) => c.column_name)).toEqual([
        'id',
        'post_title',
        'word_count',
        'writer_ref',
        'meta_json',
        'tag_list',
        'link_list',
        'removed_on',
      ])
      const fk = await raw(
        `select kcu.column_name, ccu.table_name, ccu.column_name as ref from information_schema.key_column_usage kcu
         join information_schema.constraint_column_usage ccu using (constraint_name)
         where kcu.table_name = 'cn_posts' and kcu.constraint_name = 'cn_posts_writer_ref_fkey'`,
      )
      expect(fk).toEqual([{ column_name: 'writer_ref', table_name: 'cn_writers', ref: 'writer_id' }])
      const ix = await raw(`select indexname from pg_indexes where tablename = 'cn_posts' and indexname like '%title%'`)
      expect(ix).toEqual([{ indexname: 'cn_posts_post_title_index' }])
    })

    it('insert writes the columns and gives the record keyed by field, timestamps included', async () => {
      const ann = await writer('Ann')
      expect(Object.keys(ann).sort()).toEqual(['id', 'inserted_at', 'name', 'updated_at'])
      expect(ann.inserted_at).toBeInstanceOf(Date)
      const res = await t.repo.insert(
        post({ title: 'Hello', words: 3, author_id: ann.id, meta: { lang: 'en' }, tags: ['a', 'b'] }),
      )
      if (!res.ok) throw new Error('post not inserted')
      expect(Object.keys(res.value)).toEqual(postFields)
      expect(res.value).toMatchObject({
        title: 'Hello',
        words: 3,
        author_id: ann.id,
        meta: { lang: 'en' },
        tags: ['a', 'b'],
      })
      expect(await raw('select writer_id, full_name, created_on is not null as stamped from cn_writers')).toEqual([
        { writer_id: ann.id, full_name: 'Ann', stamped: true },
      ])
      expect(await raw('select post_title, word_count, writer_ref, meta_json, tag_list from cn_posts')).toEqual([
        { post_title: 'Hello', word_count: 3, writer_ref: ann.id, meta_json: { lang: 'en' }, tag_list: ['a', 'b'] },
      ])
    })

    it('embedded records are stored in the renamed jsonb column and read back typed', async () => {
      const seen = new Date('2026-01-02T03:04:05Z')
      const r = await t.repo.insert(
        change(CnPost, {}, { title: 'E', links: [{ url: 'https://x.test', seen_at: seen }] }),
      )
      if (!r.ok) throw new Error('not inserted')
      expect((await raw('select link_list from cn_posts'))[0]!.link_list).toEqual([
        { url: 'https://x.test', seen_at: seen.toISOString() },
      ])
      expect((await t.repo.get(CnPost, r.value.id))!.links).toEqual([{ url: 'https://x.test', seen_at: seen }])
    })

    it('get, getBy, update, reload and delete (soft, then hard) go through the columns', async () => {
      const ann = await writer('Ann')
      const made = await t.repo.insert(post({ title: 'Draft', words: 1, author_id: ann.id }))
      if (!made.ok) throw new Error('not inserted')
      expect(await t.repo.get(CnWriter, ann.id)).toEqual(ann)
      expect(await t.repo.getBy(CnPost, { title: 'Draft' })).toEqual(made.value)
      const up = await t.repo.update(change(CnPost, made.value, { title: 'Final', words: 2 }))
      expect(up.ok && up.value.title).toBe('Final')
      expect(await raw('select post_title, word_count from cn_posts')).toEqual([{ post_title: 'Final', word_count: 2 }])
      expect((await t.repo.reload(CnPost, made.value))?.title).toBe('Final')
      const soft = await t.repo.delete(CnPost, made.value)
      expect(soft.ok && soft.value.removed_at).toBeInstanceOf(Date)
      expect(await raw('select removed_on is not null as gone from cn_posts')).toEqual([{ gone: true }])
      expect(await t.repo.get(CnPost, made.value.id)).toBeUndefined()
      expect((await t.repo.all(from(CnPost).withDeleted())).map((p) => p.title)).toEqual(['Final'])
      expect((await t.repo.delete(CnPost, made.value, { hard: true })).ok).toBe(true)
      expect(await t.count('cn_posts')).toBe(0)
    })

    it('insertAll with returning, updateAll, upsert and deleteAll use the columns', async () => {
      const ann = await writer('Ann')
      const ins = await t.repo.insertAll(
        CnPost,
        [
          { title: 'a', words: 1, author_id: ann.id },
          { title: 'b', words: 2 },
        ],
        { returning: ['id', 'title'] },
      )
      expect(ins.ok && ins.value.rows.map((r) => Object.keys(r).sort())).toEqual([
        ['id', 'title'],
        ['id', 'title'],
      ])
      const all = await t.repo.insertAll(CnPost, [{ title: 'c', tags: ['x'] }])
      expect(all.ok && Object.keys(all.value.rows[0]!)).toEqual(postFields)
      expect((await t.repo.updateAll(from(CnPost).where('title', '=', 'a'), { words: 9 })).ok).toBe(true)
      const upsert = await t.repo.insert(post({ title: 'b', words: 20 }), {
        onConflict: { target: ['title'], replace: ['words'] },
      })
      expect(upsert.ok && upsert.value.words).toBe(20)
      const skipped = await t.repo.insert(post({ title: 'c', words: 5 }), {
        onConflict: { target: ['title'], action: 'nothing' },
      })
      expect(skipped).toEqual({ ok: true, value: null })
      expect(await raw('select post_title, word_count from cn_posts order by post_title')).toEqual([
        { post_title: 'a', word_count: 9 },
        { post_title: 'b', word_count: 20 },
        { post_title: 'c', word_count: null },
      ])
      expect((await t.repo.deleteAll(from(CnPost).where('words', '>', 10))).ok).toBe(true)
      expect(await raw('select post_title from cn_posts where removed_on is not null')).toEqual([{ post_title: 'b' }])
      const hard = await t.repo.deleteAll(from(CnPost).where('title', 'in', ['a', 'b']), { hard: true })
      expect(hard.ok && hard.value.count).toBe(1)
    })
  })

  describe('fields stored under other column names: errors name the field', () => {
    it("the schema's unique index, a declared unique constraint and NOT NULL land on the field", async () => {
      // A row written by another program, straight into the column.
      await raw(`insert into cn_posts (post_title) values ('Same')`)
      const dup = await t.repo.insert(post({ title: 'Same' }))
      expect(!dup.ok && json(dup.error)).toEqual({ title: ['has already been taken'] })
      const declared = await t.repo.insert(uniqueConstraint(post({ title: 'Same' }), 'title', { message: 'is used' }))
      expect(!declared.ok && json(declared.error)).toEqual({ title: ['is used'] })
      const blank = await t.repo.insert(change(CnPost, {}, { words: 1 }))
      expect(!blank.ok && json(blank.error)).toEqual({ title: ["can't be blank"] })
    })

    it('a missing referenced row is an error on the association or the foreign key field', async () => {
      await raw(`insert into cn_writers (writer_id, full_name) values (1, 'Ann')`)
      const fine = await t.repo.insert(assocConstraint(post({ title: 'Ok', author_id: 1 }), 'author'))
      expect(fine.ok).toBe(true)
      const viaAssoc = await t.repo.insert(assocConstraint(post({ title: 'A', author_id: 999 }), 'author'))
      expect(!viaAssoc.ok && json(viaAssoc.error)).toEqual({ author: ['does not exist'] })
      const viaField = await t.repo.insert(foreignKeyConstraint(post({ title: 'B', author_id: 999 }), 'author_id'))
      expect(!viaField.ok && json(viaField.error)).toEqual({ author_id: ['does not exist'] })
    })

    it('audit rows name the changed fields, stored in their columns', async () => {
      const made = await t.repo.insert(post({ title: 'Audited', words: 4 }))
      if (!made.ok) throw new Error('not inserted')
      expect(await raw('select post_title, word_count from cn_posts')).toEqual([
        { post_title: 'Audited', word_count: 4 },
      ])
      const rows = await raw(`select changes from vela_audit where table_name = 'cn_posts'`)
      expect(rows).toEqual([{ changes: { title: [null, 'Audited'], words: [null, 4] } }])
    })
  })
}
