import { describe, expect, it } from 'vitest'
import { columnOf, fieldOfColumn } from './column-names.ts'
import { defineEmbeddedSchema } from './embedded.ts'
import { compileSelect, compileUpdateAll } from './query/compile.ts'
import { from } from './query/builder.ts'
import { exists } from './query/conditions.ts'
import { rowNumber } from './query/window.ts'
import { belongsTo, defineSchema } from './schema.ts'
import { cast } from './changeset.ts'
import { assocConstraint } from './constraints.ts'
import { field, sql } from './query/fragment.ts'

describe('defineSchema: fields stored under other column names', () => {
  const Post = defineSchema({
    table: 'posts',
    fields: { id: 'id', title: { type: 'string', column: 'post_title' }, body: 'text' },
    indexes: [{ columns: ['title'], unique: true }],
  })

  it('keeps a field → column map only when some field has a column of its own', () => {
    expect(Post.columnNames).toEqual({ id: 'id', title: 'post_title', body: 'body' })
    expect(Post.fieldsByName.title!.column).toBe('post_title')
    expect(defineSchema({ table: 'plain', fields: { id: 'id', title: 'string' } }).columnNames).toBeUndefined()
    expect(columnOf(Post, 'title')).toBe('post_title')
    expect(fieldOfColumn(Post, 'post_title')).toBe('title')
    expect(fieldOfColumn(Post, 'title')).toBeUndefined()
  })

  it("expects a composite foreign key under its columns' names, as migrations create it", () => {
    const Line = defineSchema({
      table: 'order_lines',
      primaryKey: ['order_id', 'line_no'],
      fields: { order_id: 'integer', line_no: 'integer' },
    })
    const Note = defineSchema({
      table: 'line_notes',
      fields: {
        id: 'id',
        order_id: { type: 'integer', column: 'order_ref' },
        line_no: { type: 'integer', column: 'line_ref' },
      },
      associations: { line: belongsTo(() => Line, { foreignKey: ['order_id', 'line_no'] }) },
    })
    const cs = assocConstraint(cast(Note, null, { order_id: 1, line_no: 2 }, ['order_id', 'line_no']), 'line')
    expect(cs.constraints.map((c) => c.constraint)).toEqual(['line_notes_order_ref_line_ref_fkey'])
  })

  it('names a default index after its columns', () => {
    expect(Post.indexes[0]!.name).toBe('posts_post_title_index')
  })

  it("writes a check's and a partial index's field references as columns; a check's error lands on the field", () => {
    const Priced = defineSchema({
      table: 'priced',
      fields: {
        id: 'id',
        price: { type: 'integer', column: 'price_cents' },
        gone: { type: 'boolean', column: 'is_gone' },
      },
      checks: [
        { name: 'priced_price_positive', check: sql`${field('price')} > 0` },
        { name: 'priced_price_small', check: 'price_cents < 100000' },
      ],
      indexes: [{ columns: ['price'], where: sql`not ${field('gone')}` }],
    })
    expect(Priced.checks.map((c) => [c.check, c.field])).toEqual([
      ['"price_cents" > 0', 'price'],
      ['price_cents < 100000', 'price'],
    ])
    expect(Priced.indexes[0]).toMatchObject({ name: 'priced_price_cents_index', where: 'not "is_gone"' })
  })

  it('updateAll sets and filters the columns', () => {
    const { sql } = compileUpdateAll(from(Post).where('title', '=', 'a'), { title: 'b' })
    expect(sql).toBe('update "posts" set "post_title" = $1 where "post_title" = $2')
  })

  it('windows, exists, DISTINCT ON and unions name the columns and keep the field names', () => {
    const Comment = defineSchema({
      table: 'comments',
      fields: { id: 'id', post_id: { type: 'integer', column: 'post_ref' }, body: { type: 'text', column: 'text' } },
    })
    const numbered = from(Post).select({
      title: 'title',
      nth: rowNumber({ partitionBy: ['body'], orderBy: [['title', 'desc']] }),
    })
    expect(compileSelect(numbered).sql).toBe(
      'select "post_title" as "title", row_number() over (partition by "body" order by "post_title" desc) as "nth" from "posts"',
    )
    const commented = from(Post).where(exists(from(Comment).where('body', '=', 'hi'), { correlate: ['id', 'post_id'] }))
    expect(compileSelect(commented).sql).toContain(
      'where exists (select 1 from "comments" where "comments"."text" = $1 and "comments"."post_ref" = "posts"."id")',
    )
    expect(compileSelect(from(Post).distinctOn(['title']).orderBy('title', 'id')).sql).toMatch(
      /^select distinct on \("post_title"\) "id", "post_title" as "title", "body" from "posts" order by "post_title" asc, "id" asc$/,
    )
    const both = from(Post)
      .select(['title'])
      .union(from(Post).select(['title']))
      .orderBy('title')
    expect(compileSelect(both).sql).toBe(
      'select "post_title" as "title" from "posts" union (select "post_title" as "title" from "posts") order by "title" asc',
    )
  })

  it('refuses a column that is empty, doubled, on a virtual field or in an embedded schema', () => {
    expect(() => defineSchema({ table: 't', fields: { a: { type: 'string', column: '' } } })).toThrow(
      'field a: column must be a non-empty string',
    )
    expect(() =>
      defineSchema({ table: 't', fields: { id: 'id', a: { type: 'string', column: 'b' }, b: 'string' } }),
    ).toThrow('schema t: fields a and b are both stored in the column "b"')
    expect(() =>
      defineSchema({ table: 't', fields: { id: 'id', a: { type: 'string', virtual: true, column: 'x' } } }),
    ).toThrow('schema t: field a is virtual, so it has no column to name')
    expect(() => defineEmbeddedSchema({ name: 'link', fields: { url: { type: 'string', column: 'href' } } })).toThrow(
      'schema link: field url is in an embedded schema, so it has no column to name',
    )
  })
})
