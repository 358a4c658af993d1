/**
 * The users API (`/api/users`). Users are presented as `{ id, name, email, note_count }` (how
 * many notes they wrote, counted in the same query: users LEFT JOIN notes, grouped by user): the
 * password hash never leaves the server. A user created here has no password (it cannot log in);
 * only `name` and `email` are cast. Failures are `{ error }` with one message.
 */
import { json } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, count, errorMessage, from } from 'vela/dbl'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'
import { error, idOf } from './_helpers.ts'

const withNoteCount = from(User)
  .leftJoin('notes')
  .groupBy(['id', 'name', 'email'])
  .select({ id: 'id', name: 'name', email: 'email', note_count: count('notes.id') })

/** GET /api/users: 200 `{ users: [...] }`, by id, each with its note count. */
export async function index() {
  return json({ users: await repo.all(withNoteCount.orderBy('id')) })
}

/** GET /api/users/:id: 200 the user; 400 when the id is not one; 404 when there is no such user. */
export async function show(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, 'id must be a positive integer')
  const user = await repo.one(withNoteCount.where('id', '=', id))
  return user ? json(user) : error(404, `user ${id} not found`)
}

/** POST /api/users: `name` and `email` required; 201 the user; otherwise 422 `{ error }`. */
export async function create(req: VelaRequest) {
  if (req.json === undefined) return error(422, 'request body required: a JSON object with name and email')
  const cs = cast(User, null, req.params, ['name', 'email'])
    .validateRequired(['name', 'email'])
    .validateFormat('email', /^[^\s@]+@[^\s@]+$/)
    .uniqueConstraint('name')
  const res = await repo.insert(cs)
  if (res.ok)
    return json({ id: res.value.id, name: res.value.name, email: res.value.email, note_count: 0 }, { status: 201 })
  return error(422, res.error.errors.map((e) => `${e.field} ${errorMessage(e)}`).join(', '))
}
