import { json, redirect, status, view } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from } from 'vela/dbl'
import type { RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'

type NoteRecord = RecordOf<typeof Note>

/** What a valid note is, in one place for the form and the API: a title, an optional body. */
function changeset(params: Record<string, unknown>) {
  return cast(Note, null, params, ['title', 'body']).validateRequired(['title'])
}

/** A page of a list: at most `limit` notes, after skipping `offset`. */
interface Page {
  readonly limit?: number
  readonly offset?: number
}

/** Newest first: all of them, or the page asked for. */
async function allNotes(page: Page = {}): Promise<NoteRecord[]> {
  let q = from(Note).orderBy(['id', 'desc'])
  if (page.limit !== undefined) q = q.limit(page.limit)
  if (page.offset !== undefined) q = q.offset(page.offset)
  return repo.all(q)
}

/** What the page shows: the notes and their number (counted in the database). */
async function listing() {
  const [notes, total] = await Promise.all([allNotes(), repo.count(from(Note))])
  return { notes, total }
}

/** GET /notes: the list, its count and the form (src/views/notes.liquid). */
export async function index() {
  return view({ ...(await listing()), form: {}, errors: {} })
}

/** POST /notes from the form: back to the list, or the form again with its errors (422). */
export async function createFromForm(req: VelaRequest) {
  const res = await repo.insert(changeset(req.params))
  if (res.ok) return redirect('/notes', { status: 303 })
  return view({ ...(await listing()), form: req.params, errors: errorsToJson(res.error) }, { status: 422 })
}

/** GET /api/notes `?limit=&offset=`: `{ notes: [...] }`; the route's schema made both integers (or refused them). */
export async function list(req: VelaRequest) {
  return json({ notes: await allNotes(req.query as Page) })
}

/** POST /api/notes `{ title, body? }`: 201 with the note, or 422 `{ errors: { title: ["can't be blank"] } }`. */
export async function create(req: VelaRequest) {
  const res = await repo.insert(changeset(req.params))
  if (res.ok) return json(res.value, { status: 201 })
  return status(422, { errors: errorsToJson(res.error) })
}
