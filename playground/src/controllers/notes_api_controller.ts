/**
 * The notes API (`/api/notes`): open (the group's security is false), JSON in and out. A note is
 * written by a user: `user_id` is required and must name one; answers carry the author's name as
 * `author`, read with the note (./_notes.ts). Validation failures are 422
 * `{ errors: { field: [messages] } }`; a missing note is a 404 `{ error }` (an id that cannot
 * exist, such as `abc`, is missing too).
 */
import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, foreignKeyConstraint, isChangeset, validateRequired } from 'vela/dbl'
import type { Changeset, DbError } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { error, idOf, orThrow } from './_helpers.ts'
import { noteWithAuthor, notesWithAuthor } from './_notes.ts'
import type { NoteWithAuthor } from './_notes.ts'

const present = (n: NoteWithAuthor) => ({
  id: n.id,
  title: n.title,
  body: n.body,
  user_id: n.user_id,
  author: n.user.name,
  inserted_at: n.inserted_at,
  updated_at: n.updated_at,
})

function failed(err: Changeset<typeof Note> | DbError) {
  if (isChangeset(err)) return status(422, {}, { errors: errorsToJson(err) })
  throw err
}

async function find(req: VelaRequest): Promise<NoteWithAuthor | undefined> {
  const id = idOf(req)
  return id === undefined ? undefined : noteWithAuthor(id)
}

const missing = (req: VelaRequest) => error(404, `note ${req.bindings.id} not found`)

/** GET /api/notes: 200 `{ notes: [...] }`, each with its author's name. */
export async function index() {
  return json({ notes: (await notesWithAuthor('id')).map(present) })
}

/** GET /api/notes/:id: 200 the note; 404. */
export async function show(req: VelaRequest) {
  const note = await find(req)
  return note ? json(present(note)) : missing(req)
}

/** POST /api/notes: title, body, user_id; title and user_id required, user_id an existing user; 201 the note; 422 `{ errors }`. */
export async function create(req: VelaRequest) {
  const cs = validateRequired(cast(Note, null, req.params, ['title', 'body', 'user_id']), ['title', 'user_id'])
  const res = await repo.insert(foreignKeyConstraint(cs, 'user_id'))
  if (!res.ok) return failed(res.error)
  const note = await noteWithAuthor(res.value.id)
  return note ? json(201, {}, present(note)) : missing(req)
}

/** PUT /api/notes/:id: title and body only (the author stays); 200 the note; 404; 422 `{ errors }`. */
export async function update(req: VelaRequest) {
  const note = await find(req)
  if (!note) return missing(req)
  const res = await repo.update(validateRequired(cast(Note, note, req.params, ['title', 'body']), ['title']))
  return res.ok ? json(present({ ...res.value, user: note.user })) : failed(res.error)
}

/** DELETE /api/notes/:id: 204; 404. */
async function deleteAction(req: VelaRequest) {
  const note = await find(req)
  if (!note) return missing(req)
  await orThrow(repo.delete(Note, note))
  return status(204)
}

export { deleteAction as delete }
