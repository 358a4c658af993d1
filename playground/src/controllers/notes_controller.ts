/**
 * The notes pages (spec §4.3's `/notes` group), HTML forms behind the login. The group's
 * security callback already redirects anonymous visitors to /login; each handler still checks
 * `req.authData` as the spec describes, so a handler moved to another group cannot leak notes.
 * Create, update and delete redirect to /notes whatever the outcome (the spec's rows).
 */
import { httpError, redirect, view } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, from, orderBy, validateRequired } from 'vela/dbl'
import type { RecordOf } from 'vela/dbl'
import { signedIn } from '../auth/login.ts'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { idOf } from './_helpers.ts'

const toLogin = () => redirect('/login')

async function findNote(req: VelaRequest): Promise<RecordOf<typeof Note> | undefined> {
  const id = idOf(req)
  if (id === undefined) return undefined
  const res = await repo.get(Note, id)
  return res.ok ? res.value : undefined
}

/** GET /notes: every note, newest first (`notes_index.liquid`, with `notes` and `username`). */
export async function index(req: VelaRequest) {
  const username = signedIn(req)
  if (!username) return toLogin()
  const res = await repo.all(orderBy(from(Note), ['inserted_at', 'desc'], ['id', 'desc']))
  if (!res.ok) throw res.error
  return view({ notes: res.value, username }, { view: 'notes_index' })
}

/** GET /notes/new: the empty form. */
function newAction(req: VelaRequest) {
  const username = signedIn(req)
  if (!username) return toLogin()
  return view({ username }, { view: 'notes_new' })
}

/** POST /notes: title and body from the form, the author from the session. */
export async function create(req: VelaRequest) {
  const username = signedIn(req)
  if (!username) return toLogin()
  const params = { title: req.params.title, body: req.params.body, author: username }
  await repo.insert(validateRequired(cast(Note, null, params, ['title', 'body', 'author']), ['title', 'author']))
  return redirect('/notes')
}

/** GET /notes/:id/edit: the form filled in; 404 when there is no such note. */
export async function edit(req: VelaRequest) {
  const username = signedIn(req)
  if (!username) return toLogin()
  const note = await findNote(req)
  if (!note) throw httpError(404, `note ${req.bindings.id} not found`)
  return view({ note, username }, { view: 'notes_edit' })
}

/** POST /notes/:id: new title and body. */
export async function update(req: VelaRequest) {
  if (!signedIn(req)) return toLogin()
  const note = await findNote(req)
  if (note) {
    const params = { title: req.params.title, body: req.params.body }
    await repo.update(validateRequired(cast(Note, note, params, ['title', 'body']), ['title']))
  }
  return redirect('/notes')
}

/** POST /notes/:id/delete. */
async function deleteAction(req: VelaRequest) {
  if (!signedIn(req)) return toLogin()
  const note = await findNote(req)
  if (note) await repo.delete(Note, note)
  return redirect('/notes')
}

export { deleteAction as delete, newAction as new }
