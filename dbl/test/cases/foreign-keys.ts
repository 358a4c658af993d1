/**
 * Foreign keys as the migration generator makes them from belongsTo, seen through the repository:
 * the tables here are created by the generated operations (not hand-written DDL), so the constraint
 * names and ON DELETE rules are the generator's, and the changeset declarations must match them.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { assocConstraint, foreignKeyConstraint, noAssocConstraint } from '../../constraints.ts'
import { operationsSql } from '../../migrations/ddl.ts'
import { planMigration } from '../../migrations/diff.ts'
import { modelFromSchemas } from '../../migrations/model.ts'
import { belongsTo, defineSchema, hasMany, type AnySchema } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'

const Author: AnySchema = defineSchema({
  table: 'authors',
  fields: { id: 'id', name: 'string' },
  associations: { books: hasMany(() => Book, { foreignKey: 'author_id' }) },
})
const Book: AnySchema = defineSchema({
  table: 'books',
  fields: { id: 'id', title: 'string', author_id: 'integer' },
  associations: {
    author: belongsTo(() => Author, { onDelete: 'cascade' }),
    reviews: hasMany(() => Review, { foreignKey: 'book_id' }),
  },
})
const Review: AnySchema = defineSchema({
  table: 'reviews',
  fields: { id: 'id', book_id: 'integer' },
  associations: { book: belongsTo(() => Book) },
})
const Note: AnySchema = defineSchema({
  table: 'notes',
  fields: { id: 'id', author_id: 'integer' },
  associations: { author: belongsTo(() => Author, { onDelete: 'set_null' }) },
})

const json = (e: unknown) => errorsToJson(e as Changeset)
const bookCs = (params: Record<string, unknown>) => cast(Book, {}, params, ['title', 'author_id'])

export function foreignKeyCases(t: SuiteContext): void {
  describe('foreign keys generated from belongsTo', () => {
    beforeAll(async () => {
      await t.adapter.query('DROP TABLE IF EXISTS reviews, notes, books, authors')
      for (const sql of operationsSql(planMigration(new Map(), modelFromSchemas([Review, Note, Book, Author])).up))
        await t.adapter.query(sql)
    })
    beforeEach(async () => {
      await t.adapter.query('TRUNCATE reviews, notes, books, authors RESTART IDENTITY')
    })

    const insert = async (cs: Changeset) => {
      const r = await t.repo.insert(cs)
      if (!r.ok) throw new Error(JSON.stringify(r.error))
      return r.value as Record<string, unknown> & { id: number }
    }

    it('a dangling key is "does not exist" on the field (foreignKeyConstraint) or the association (assocConstraint); undeclared, a DbError thrown', async () => {
      const fk = await t.repo.insert(foreignKeyConstraint(bookCs({ title: 'Lost', author_id: 999 }), 'author_id'))
      expect(!fk.ok && json(fk.error)).toEqual({ author_id: ['does not exist'] })
      const assoc = await t.repo.insert(assocConstraint(bookCs({ title: 'Lost', author_id: 999 }), 'author'))
      expect(!assoc.ok && json(assoc.error)).toEqual({ author: ['does not exist'] })
      await expect(t.repo.insert(bookCs({ title: 'Lost', author_id: 999 }))).rejects.toMatchObject({
        kind: 'db_error',
        code: '23503',
        constraint: 'books_author_id_fkey',
      })
      expect(await t.count('books')).toBe(0)
      // The same declaration lets a valid key through.
      const author = await insert(cast(Author, {}, { name: 'Ann' }, ['name']))
      expect(
        (await t.repo.insert(foreignKeyConstraint(bookCs({ title: 'Found', author_id: author.id }), 'author_id'))).ok,
      ).toBe(true)
      expect(() => assocConstraint(bookCs({}), 'reviews')).toThrow(
        'schema books has no belongsTo association "reviews"',
      )
    })

    it('deleting a parent: cascade deletes the children, set_null empties their key', async () => {
      const author = await insert(cast(Author, {}, { name: 'Ann' }, ['name']))
      await insert(bookCs({ title: 'One', author_id: author.id }))
      await insert(cast(Note, {}, { author_id: author.id }, ['author_id']))
      const r = await t.repo.delete(change(Author, author))
      expect(r.ok).toBe(true)
      expect(await t.count('books')).toBe(0)
      expect((await t.adapter.query('SELECT author_id FROM notes')).rows).toEqual([{ author_id: null }])
    })

    it('no_action (the default): a parent still referenced stays, with noAssocConstraint as an error on the association', async () => {
      const author = await insert(cast(Author, {}, { name: 'Ann' }, ['name']))
      const book = await insert(bookCs({ title: 'One', author_id: author.id }))
      await insert(cast(Review, {}, { book_id: book.id }, ['book_id']))
      const r = await t.repo.delete(noAssocConstraint(change(Book, book), 'reviews'))
      expect(!r.ok && json(r.error)).toEqual({ reviews: ['are still associated with this entry'] })
      // Through the cascade from authors too: the review still holds the book, so nothing is deleted.
      await expect(t.repo.delete(change(Author, author))).rejects.toMatchObject({ code: '23503' })
      expect([await t.count('authors'), await t.count('books')]).toEqual([1, 1])
    })
  })
}
