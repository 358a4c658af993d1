/**
 * Notes as the pages and the API read and write them.
 *
 * Reading: with the name of the user each note belongs to, in the same query as the notes (users
 * LEFT JOINed through `Note.user`), never one query per note. A note shows as its `author` the
 * linked user's name, else the name stored with it (an author who is no user); the row type
 * follows from the query.
 *
 * Writing: a new note's changeset casts `title`, `body` and `author`, requires `title` and
 * `author`, and links the user of that name, if one exists, through `user_id`, as an Ecto
 * context would look the user up before inserting. An edit casts `title` and `body` only: the
 * author of a note never changes.
 */
import { cast, from, getChange } from 'vela/dbl'
import type { Changeset, Direction, Params, RecordOf, RowOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { User } from '../schemas/user.ts'

const withUser = from(Note)
  .leftJoin('user')
  .select(['id', 'title', 'body', 'author', 'user_id', 'inserted_at', 'updated_at', 'user.name'])

type Row = RowOf<typeof withUser>

/** The row as shown: `author` is the linked user's name, else the stored one. */
const shown = ({ user, ...note }: Row) => ({ ...note, author: user.name ?? note.author })

/** Every note with its author, in the order given (ties broken by id, in the same direction). */
export async function notesWithAuthor(by: 'id' | 'inserted_at', direction: Direction = 'asc') {
  const ordered =
    by === 'id' ? withUser.orderBy(['id', direction]) : withUser.orderBy([by, direction], ['id', direction])
  return (await repo.all(ordered)).map(shown)
}

/** The note `id` with its author, or undefined when there is none. */
export async function noteWithAuthor(id: number) {
  const row = await repo.one(withUser.where('id', '=', id))
  return row && shown(row)
}

/** A note as the reads above give it: `{ id, title, body, author, user_id, inserted_at, updated_at }`. */
export type NoteWithAuthor = NonNullable<Awaited<ReturnType<typeof noteWithAuthor>>>

/** A new note: `title`, `body` and `author` cast, `title` and `author` required, `user_id` the user named `author` if any. */
export async function newNote(params: Params): Promise<Changeset<typeof Note>> {
  const cs = cast(Note, null, params, ['title', 'body', 'author']).validateRequired(['title', 'author'])
  const author = getChange(cs, 'author')
  if (!cs.valid || !author) return cs
  const user = await repo.getBy(User, { name: author })
  return user ? cs.putChange('user_id', user.id) : cs
}

/** An edit of `note`: `title` and `body` cast, `title` required; the author stays. */
export function editNote(note: RecordOf<typeof Note>, params: Params): Changeset<typeof Note> {
  return cast(Note, note, params, ['title', 'body']).validateRequired(['title'])
}
