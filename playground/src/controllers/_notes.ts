/**
 * Notes as the pages and the API show them: with their author's name, read in the same query as
 * the notes (users LEFT JOINed through `Note.user`: a note whose author is unknown is kept, its
 * `user.name` null), never one query per note. The row type follows from the query.
 */
import { from, leftJoin, orderBy, select, where } from 'vela/dbl'
import type { Direction } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { found, orThrow } from './_helpers.ts'

const withAuthor = select(leftJoin(from(Note), 'user'), [
  'id',
  'title',
  'body',
  'user_id',
  'inserted_at',
  'updated_at',
  'user.name',
])

/** Every note with its author, in the order given (ties broken by id, in the same direction). */
export function notesWithAuthor(by: 'id' | 'inserted_at', direction: Direction = 'asc') {
  const ordered =
    by === 'id' ? orderBy(withAuthor, ['id', direction]) : orderBy(withAuthor, [by, direction], ['id', direction])
  return orThrow(repo.all(ordered))
}

/** The note `id` with its author, or undefined when there is none. */
export function noteWithAuthor(id: number) {
  return found(repo.one(where(withAuthor, 'id', '=', id)))
}

/** A note as the queries above read it: `{ id, title, body, user_id, inserted_at, updated_at, user: { name } }`. */
export type NoteWithAuthor = NonNullable<Awaited<ReturnType<typeof noteWithAuthor>>>
