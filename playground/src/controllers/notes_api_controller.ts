/**
 * The notes API (`/api/notes`): open (the group's security is false), JSON in and out. A note has a
 * `title`, a `body` and an `author`, the writer's name: `title` and `author` are required, and the
 * author never changes after the note is created. When a user has that name the note is also
 * linked to them (`user_id`, read-only here), as the pages' notes are (./_notes.ts). Validation
 * failures are 422 `{ errors: { field: [messages] } }`; a missing note is a 404 `{ error }` (an
 * id that cannot exist, such as `abc`, is missing too).
 */
import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { errorsToJson } from 'vela/dbl'
import type { Changeset, RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { error, idOf } from './_helpers.ts'
import { editNote, newNote, noteWithAuthor, notesWithAuthor } from './_notes.ts'
import type { NoteWithAuthor } from './_notes.ts'

// Timestamps as the JSON text carries them (ISO 8601), the form the routes' `note` schema describes.
const present = (n: NoteWithAuthor) => ({
  id: n.id,
  title: n.title,
  body: n.body,
  author: n.author,
  user_id: n.user_id,
  inserted_at: n.inserted_at?.toISOString() ?? null,
  updated_at: n.updated_at?.toISOString() ?? null,
})

/** A refused write: 422 with the changeset's errors (a database failure is thrown, and answered 503/504/500). */
function failed(err: Changeset<typeof Note>) {
  return status(422, { errors: errorsToJson(err) })
}

async function find(req: VelaRequest): Promise<RecordOf<typeof Note> | undefined> {
  const id = idOf(req)
  return id === undefined ? undefined : repo.get(Note, id)
}

const missing = (req: VelaRequest) => error(404, `note ${req.bindings.id} not found`)

/** The note `id` as the API answers it (200 or the given status), or a 404 when it is gone. */
async function answer(req: VelaRequest, id: number, code: 200 | 201 = 200) {
  const note = await noteWithAuthor(id)
  return note ? json(present(note), { status: code }) : missing(req)
}

/** GET /api/notes: 200 `{ notes: [...] }`, by id. */
export async function index() {
  return json({ notes: (await notesWithAuthor('id')).map(present) })
}

/** GET /api/notes/:id: 200 the note; 404. */
export async function show(req: VelaRequest) {
  const id = idOf(req)
  return id === undefined ? missing(req) : answer(req, id)
}

/** POST /api/notes: title, body, author; title and author required; 201 the note; 422 `{ errors }`. */
export async function create(req: VelaRequest) {
  const res = await repo.insert(await newNote(req.params))
  return res.ok ? answer(req, res.value.id, 201) : failed(res.error)
}

/** PUT /api/notes/:id: title and body only (the author stays); 200 the note; 404; 422 `{ errors }`. */
export async function update(req: VelaRequest) {
  const note = await find(req)
  if (!note) return missing(req)
  const res = await repo.update(editNote(note, req.params))
  return res.ok ? answer(req, note.id) : failed(res.error)
}

/** DELETE /api/notes/:id: 204; 404. */
async function deleteAction(req: VelaRequest) {
  const note = await find(req)
  if (!note) return missing(req)
  const res = await repo.delete(Note, note)
  if (!res.ok) throw res.error
  return status(204)
}

export { deleteAction as delete }
