/**
 * ON DELETE RESTRICT refuses a delete with SQLSTATE 23001 (restrict_violation), not 23503: it is a
 * foreign key violation all the same, so a declared noAssocConstraint turns it into a field error.
 */
import { describe, expect, it } from 'vitest'
import { change, errorsToJson } from './changeset.ts'
import { constraintError, noAssocConstraint } from './constraints.ts'
import { toDbError } from './db-error.ts'
import { belongsTo, defineSchema, hasMany, type AnySchema } from './schema.ts'

const Author: AnySchema = defineSchema({
  table: 'authors',
  fields: { id: 'id' },
  associations: { books: hasMany(() => Book) },
})
const Book: AnySchema = defineSchema({
  table: 'books',
  fields: { id: 'id', author_id: 'integer' },
  associations: { author: belongsTo(() => Author, { onDelete: 'restrict' }) },
})

// What PostgreSQL (and PGlite) send for `DELETE FROM authors` while a book still points at the author.
const restrict = {
  code: '23001',
  message:
    'update or delete on table "authors" violates RESTRICT setting of foreign key constraint "books_author_id_fkey" on table "books"',
  constraint: 'books_author_id_fkey',
  table: 'books',
}

describe('restrict violations', () => {
  it('are foreign key violations', () => {
    expect(toDbError(restrict)).toMatchObject({
      code: '23001',
      constraintKind: 'foreign_key',
      constraint: 'books_author_id_fkey',
    })
  })

  it('become the declared noAssocConstraint error', () => {
    const cs = constraintError(noAssocConstraint(change(Author, { id: 1 }), 'books'), toDbError(restrict))
    expect(cs && errorsToJson(cs)).toEqual({ books: ['are still associated with this entry'] })
  })
})
