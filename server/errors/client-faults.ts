/**
 * Requests that fail on the client's side, after the app was given them:
 * - the client closed the connection before its body was read (`ClientClosedError`): nothing
 *   can be answered. The body reader rejects with it (server/request-body.ts); the pipeline logs
 *   it as one line (server/pipeline/failure.ts); observers see status 499, nginx's "client closed
 *   request" (server/exchange/response-end.ts);
 * - the client is still sending its body when `requestTimeout` (node's parser, seen by
 *   server/listener/client-errors.ts) or the route's deadline (server/pipeline/deadline.ts) runs
 *   out: a 408 with `REQUEST_TIMEOUT`, the same whichever comes first.
 */
import { HttpError } from './http-error.ts'

export class ClientClosedError extends HttpError {
  constructor() {
    super(499, 'the client closed the connection before the request body was read')
  }
}

export const REQUEST_TIMEOUT = 'Request Timeout: the request was not received in time'
