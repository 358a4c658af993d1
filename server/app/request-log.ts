/**
 * A request's log lines name it: the runtime hands the request (its facts, `id` first) to the log
 * with the line, and the default log writes `… request_id=Zk3x9Qa1-1f`, the id its response
 * carries (`x-request-id`), so a client's report, a proxy's access log and the app's log meet on
 * one value. The line's kind (its coalescing key, coalesce-log.ts) leaves the id out, so repeated
 * failures of many requests still coalesce into one line.
 */
import type { RequestFacts } from '../contracts/request.ts'
import type { KeyedLog } from './coalesce-log.ts'

/** The suffix that names a request in a written log line (` request_id=…`); empty for none. */
export const requestTag = (request: RequestFacts | undefined): string =>
  request === undefined ? '' : ` request_id=${request.id}`

/** Logs `message` about `request`; `key` is the line's kind (default: the message). */
export function logRequest(
  log: KeyedLog,
  request: RequestFacts,
  message: string,
  error: unknown,
  key: string = message,
): void {
  log(message, error, key, request)
}
