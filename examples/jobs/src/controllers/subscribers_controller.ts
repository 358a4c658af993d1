import { json, status } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, isChangeset } from 'vela/dbl'
import sendWelcome from '../jobs/send_welcome.ts'
import { repo } from '../repo.ts'
import { Subscriber } from '../schemas/subscriber.ts'

/**
 * POST /api/subscribers `{ email }`: the subscriber and its welcome mail's job in one transaction,
 * so a refused sign-up (a malformed or taken email: 422) leaves no job behind, and a job never
 * runs for a row that was not saved. 201 with the subscriber (`welcomed_at` null until the job ran).
 */
export async function create(req: VelaRequest) {
  const res = await repo.transaction(async () => {
    const cs = cast(Subscriber, null, req.params, ['email'])
      .validateRequired(['email'])
      .validateFormat('email', /^[^\s@]+@[^\s@]+$/)
      .uniqueConstraint('email')
    const subscriber = await repo.insert(cs)
    if (!subscriber.ok) return subscriber
    await sendWelcome.enqueue({ subscriberId: subscriber.value.id })
    return subscriber
  })
  if (res.ok) return json(res.value, { status: 201 })
  if (isChangeset(res.error)) return status(422, { errors: errorsToJson(res.error) })
  throw res.error
}

/** GET /api/subscribers/:id: the subscriber, or 404 (an id that is not a number too). */
export async function show(req: VelaRequest) {
  const id = String(req.params.id)
  const subscriber = /^\d{1,15}$/.test(id) ? await repo.get(Subscriber, Number(id)) : undefined
  return subscriber ? json(subscriber) : status(404, { error: 'no such subscriber' })
}
