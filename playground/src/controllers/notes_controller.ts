/**
 * The notes pages (the `/notes` group), HTML forms behind the login. The group's security
 * callback already redirects anonymous visitors to /login; each handler still checks
 * `req.authData`, so a handler moved to another group cannot leak notes. Create, update and
 * delete redirect to /notes whatever the outcome.
 */
import { httpError, redirect, view } from 'vela'
import type { VelaRequest } from 'vela'
import type { RecordOf } from 'vela/dbl'
import { signedIn } from '../auth/login.ts'
import { repo } from '../repo.ts'
import { Note } from '../schemas/note.ts'
import { idOf } from './_helpers.ts'
import { editNote, newNote, notesWithAuthor } from './_notes.ts'

const toLogin = () => redirect('/login')

async function findNote(req: VelaRequest): Promise<RecordOf<typeof Note> | undefined> {
  const id = idOf(req)
  return id === undefined ? undefined : repo.get(Note, id)
}

/** GET /notes: every note with its author's name (one query), newest first (`notes_index.liquid`, with `notes` and `username`). */
export async function index(req: VelaRequest) {
  const user = signedIn(req)
  if (!user) return toLogin()
  return view('notes_index', { notes: await notesWithAuthor('inserted_at', 'desc'), username: user.name })
}

/** GET /notes/new: the empty form. */
function newAction(req: VelaRequest) {
  const user = signedIn(req)
  if (!user) return toLogin()
  return view('notes_new', { username: user.name })
}

/** POST /notes: title and body from the form; the author is the signed-in user's name, never a form field. */
export async function create(req: VelaRequest) {
  const user = signedIn(req)
  if (!user) return toLogin()
  await repo.insert(await newNote({ title: req.params.title, body: req.params.body, author: user.name }))
  return redirect('/notes')
}

/** GET /notes/:id/edit: the form filled in; 404 when there is no such note. */
export async function edit(req: VelaRequest) {
  const user = signedIn(req)
  if (!user) return toLogin()
  const note = await findNote(req)
  if (!note) throw httpError(404, `note ${req.bindings.id} not found`)
  return view('notes_edit', { note, username: user.name })
}

/** POST /notes/:id: new title and body. */
export async function update(req: VelaRequest) {
  if (!signedIn(req)) return toLogin()
  const note = await findNote(req)
  if (note) {
    await repo.update(editNote(note, req.params))
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
