import { describe, expect, it } from 'vitest'
import { columnOf, fieldOfColumn } from './column-names.ts'
import { defineEmbeddedSchema } from './embedded.ts'
import { compileUpdateAll } from './query/compile.ts'
import { from } from './query/builder.ts'
import { defineSchema } from './schema.ts'

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

  it('names a default index after its columns', () => {
    expect(Post.indexes[0]!.name).toBe('posts_post_title_index')
  })

  it('updateAll sets and filters the columns', () => {
    const { sql } = compileUpdateAll(from(Post).where('title', '=', 'a'), { title: 'b' })
    expect(sql).toBe('update "posts" set "post_title" = $1 where "post_title" = $2')
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
