import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from } from 'vela/dbl'
import type { Changeset } from 'vela/dbl'
import { callerOf } from '../auth/bearer.ts'
import { repo } from '../repo.ts'
import { Task } from '../schemas/task.ts'

/** What GET /api/tasks may ask for (priv/schemas/task_filter.json; the route made `done` a boolean). */
interface Filter {
  readonly done?: boolean
  readonly q?: string
  readonly limit?: number
}

/** The fields a caller may set; `user_id` is always the caller's, never taken from the body. */
const EDITABLE = ['title', 'done', 'due_on'] as const

const validated = (cs: Changeset<typeof Task>) =>
  cs.validateRequired(['title']).validateLength('title', { min: 1, max: 200 })

/** The caller's own tasks: every query starts here, so no one reads another user's task. */
const ownTasks = (req: VelaRequest) => from(Task).where('user_id', '=', callerOf(req).userId)

const notFound = (req: VelaRequest) => status(404, { error: `task ${req.bindings.id} not found` })

/** GET /api/tasks `?done=&q=&limit=`: open tasks first, then by due date and id. */
export async function index(req: VelaRequest) {
  const filter = req.query as Filter
  let q = ownTasks(req)
  if (filter.done !== undefined) q = q.where('done', '=', filter.done)
  if (filter.q) q = q.where('title', 'ilike', { contains: filter.q })
  const tasks = await repo.all(q.orderBy('done', 'due_on', 'id').limit(filter.limit ?? 50))
  return json({ tasks })
}

/** GET /api/tasks/:id: the task, or 404 (also when it is someone else's). */
export async function show(req: VelaRequest) {
  const task = await repo.one(ownTasks(req).where('id', '=', Number(req.bindings.id)))
  return task ? json(task) : notFound(req)
}

/** POST /api/tasks `{ title, done?, due_on? }`: 201 with the task, or 422 `{ errors }`. */
export async function create(req: VelaRequest) {
  const cs = validated(cast(Task, null, req.params, EDITABLE)).putChange('user_id', callerOf(req).userId)
  const res = await repo.insert(cs)
  if (!res.ok) return status(422, { errors: errorsToJson(res.error) })
  return json(res.value, { status: 201 })
}

/** PATCH /api/tasks/:id: the fields given change; 200 with the task, 404, or 422 `{ errors }`. */
export async function update(req: VelaRequest) {
  const task = await repo.one(ownTasks(req).where('id', '=', Number(req.bindings.id)))
  if (!task) return notFound(req)
  const res = await repo.update(validated(cast(Task, task, req.params, EDITABLE)))
  if (!res.ok) return status(422, { errors: errorsToJson(res.error) })
  return json(res.value)
}

/** DELETE /api/tasks/:id: 204, or 404. */
export async function remove(req: VelaRequest) {
  const res = await repo.deleteAll(ownTasks(req).where('id', '=', Number(req.bindings.id)))
  if (!res.ok) throw res.error
  return res.value.count === 0 ? notFound(req) : status(204)
}
