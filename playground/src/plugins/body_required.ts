// A plugin of the playground's own, listed in the API's pipeline (./pipelines.ts).
import { definePlugin, ok, status, stop } from 'vela'

const WRITES = new Set(['POST', 'PUT', 'PATCH'])

/**
 * Answers a POST, PUT or PATCH that carries no body at all 422 `{ error }`.
 *
 * It answers before the route's `validate` would, field by field (422 `{ errors }`), so a client
 * is told it sent nothing rather than which fields it left out. Like a plug in a Phoenix `:api`
 * pipeline, it comes after the request plugin, which has already decoded a JSON body into
 * `req.json` (or answered 400 for an empty or malformed one, 415 for another type): a request
 * that reaches it without `req.json` had no body.
 */
export const bodyRequired = definePlugin<Record<string, never>>({
  name: 'body_required',
  info: { title: 'Body required', description: 'Answers a POST, PUT or PATCH without a body 422 { error }.' },
  preRequest: (req) =>
    WRITES.has(req.method) && req.json === undefined
      ? stop(status(422, { error: 'a request body is required: a JSON object' }))
      : ok(req),
})
