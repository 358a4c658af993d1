/**
 * The notes API (spec §4.3 `/api/notes`): open (the group's security is false), JSON in and out.
 * Validation failures are 422 `{ errors: { field: [messages] } }`; a missing note is a 404
 * `{ error }` (an id that cannot exist, such as `abc`, is missing too).
 */
import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from, isChangeset, orderBy, validateRequired } from 'vela/dbl'
import type { Changeset, DbError, RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { error, idOf } from './_helpers.ts'

type NoteRecord = RecordOf<typeof Note>

const present = (n: NoteRecord) => ({ id: n.id, title: n.title, body: n.body, author: n.author, inserted_at: n.inserted_at, updated_at: n.updated_at })

function failed(err: Changeset<typeof Note> | DbError) {
  if (isChangeset(err)) return status(422, {}, { errors: errorsToJson(err) })
  throw err
}

async function find(req: VelaRequest): Promise<NoteRecord | undefined> {
  const id = idOf(req)
  const res = id === undefined ? undefined : await repo.get(Note, id)
  return res?.ok ? res.value : undefined
}

const missing = (req: VelaRequest) => error(404, `note ${req.bindings.id} not found`)

/** GET /api/notes: 200 `{ notes: [...] }`. */
export async function index() {
  const res = await repo.all(orderBy(from(Note), 'id'))
  if (!res.ok) throw res.error
  return json({ notes: res.value.map(present) })
}

/** GET /api/notes/:id: 200 the note; 404. */
export async function show(req: VelaRequest) {
  const note = await find(req)
  return note ? json(present(note)) : missing(req)
}

/** POST /api/notes: title, body, author; title and author required; 201 the note; 422 `{ errors }`. */
export async function create(req: VelaRequest) {
  const res = await repo.insert(validateRequired(cast(Note, null, req.params, ['title', 'body', 'author']), ['title', 'author']))
  return res.ok ? json(201, {}, present(res.value)) : failed(res.error)
}

/** PUT /api/notes/:id: title and body only; 200 the note; 404; 422 `{ errors }`. */
export async function update(req: VelaRequest) {
  const note = await find(req)
  if (!note) return missing(req)
  const res = await repo.update(validateRequired(cast(Note, note, req.params, ['title', 'body']), ['title']))
  return res.ok ? json(present(res.value)) : failed(res.error)
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
