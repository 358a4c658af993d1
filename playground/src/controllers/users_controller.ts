/**
 * The users API (spec §4.3 `/api/users`). Users are presented as `{ id, name, email }`: the
 * password hash never leaves the server. A user created here has no password (it cannot log in);
 * only `name` and `email` are cast. Failures are `{ error }` with one message, as the spec lists.
 */
import { json } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorMessage, from, isChangeset, orderBy, uniqueConstraint, validateFormat, validateRequired } from 'vela/dbl'
import type { RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { User } from '../schemas/user.ts'
import { error, idOf } from './_helpers.ts'

const present = (u: RecordOf<typeof User>) => ({ id: u.id, name: u.name, email: u.email })

/** GET /api/users: 200 `{ users: [...] }`. */
export async function index() {
  const res = await repo.all(orderBy(from(User), 'id'))
  if (!res.ok) throw res.error
  return json({ users: res.value.map(present) })
}

/** GET /api/users/:id: 200 the user; 400 when the id is not one; 404 when there is no such user. */
export async function show(req: VelaRequest) {
  const id = idOf(req)
  if (id === undefined) return error(400, 'id must be a positive integer')
  const res = await repo.get(User, id)
  return res.ok ? json(present(res.value)) : error(404, `user ${id} not found`)
}

/** POST /api/users: `name` and `email` required; 201 the user; otherwise 422 `{ error }`. */
export async function create(req: VelaRequest) {
  if (req.json === undefined) return error(422, 'request body required: a JSON object with name and email')
  let cs = validateRequired(cast(User, null, req.params, ['name', 'email']), ['name', 'email'])
  cs = uniqueConstraint(validateFormat(cs, 'email', /^[^\s@]+@[^\s@]+$/), 'name')
  const res = await repo.insert(cs)
  if (res.ok) return json(201, {}, present(res.value))
  if (!isChangeset(res.error)) throw res.error
  return error(422, res.error.errors.map((e) => `${e.field} ${errorMessage(e)}`).join(', '))
}
