/**
 * Writing an outcome to node's response, as node writes fastest: an encoded reply, or a srvx
 * fast response whose body is a string or bytes, goes out with one `end(body)` (node sends the
 * head and the body in one write); streams and other responses go through srvx's writer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { FastResponse, sendNodeResponse } from 'srvx/node'
import type { EncodedReply, Outcome } from '../respond.ts'
import type { Log } from './exchange.ts'
import { toNodeShaped } from './internals.ts'

/** Writes the outcome; a failure to write (the client went away) is logged and the response destroyed. */
export function writeOutcome(req: IncomingMessage, res: ServerResponse, outcome: Outcome, log: Log): void {
  try {
    const sending = outcome instanceof Response ? writeResponse(res, outcome) : writeEncoded(res, outcome)
    if (sending) sending.catch((err: unknown) => failedToSend(req, res, err, log))
  } catch (err) {
    failedToSend(req, res, err, log)
  }
}

/** The response could not be written: nothing sensible can follow on this connection. */
export function failedToSend(req: IncomingMessage, res: ServerResponse, err: unknown, log: Log): void {
  log(`failed to answer ${req.method} ${req.url}`, err)
  res.destroy()
}

function writeResponse(res: ServerResponse, response: Response): void | Promise<void> {
  const out = toNodeShaped(response)
  if (!out) return sendNodeResponse(res, response)
  const body = out.body
  if (body == null || typeof body === 'string' || body instanceof Uint8Array) {
    res.writeHead(out.status, out.headers)
    res.end(body ?? undefined)
    return
  }
  return sendNodeResponse(res, new FastResponse(body as BodyInit, { status: out.status, headers: pairs(out.headers) }))
}

function writeEncoded(res: ServerResponse, e: EncodedReply): void {
  res.writeHead(e.status, e.headers)
  res.end(e.body ?? undefined)
}

function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!])
  return out
}
