// Shared by the controllers. Files starting with `_` are not controllers: discovery skips them.
import { status } from 'vela'
import type { VelaRequest } from 'vela'

/** `:id` as a database id, or undefined when it cannot be one (not a positive integer). */
export function idOf(req: VelaRequest): number | undefined {
  const id = Number(req.bindings.id)
  return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/** The `{ error }` answers. */
export const error = (code: 400 | 404 | 422, message: string) => status(code, { error: message })
