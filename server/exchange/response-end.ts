/**
 * When a response is finished and how many body bytes it sent, for stream handlers that report
 * on requests (the metrics hook, vela/telemetry). The runtime's own node exchange counts what it
 * writes itself (node.ts); the functions here serve the low-level stream handler forms, whose
 * code may write to node's response directly: there the bytes are counted where they leave, on
 * node's response ('close', after it was sent or when the client went away), so streamed and
 * compressed bodies count as sent; in-process (`inject`, no node response) the web body is counted
 * as it is read, and the response is finished when the body has been read to its end (or cancelled).
 *
 * A node response closed before its head was sent (the client went away first) is reported with
 * status 499, nginx's "client closed request": what the app would have answered was never sent.
 */
import type { ServerResponse } from 'node:http'

interface NodeCarrier {
  runtime?: { node?: { res?: ServerResponse } }
}

/** Status reported for a request whose client closed the connection before the answer was sent. */
export const CLIENT_CLOSED = 499

/** Calls `done(status, bytes)` once when `res` has been sent; returns the response to hand on. */
export function whenResponseEnds(
  request: Request,
  res: Response,
  done: (status: number, bytes: number) => void,
): Response {
  const nodeRes = (request as unknown as NodeCarrier).runtime?.node?.res
  if (nodeRes) {
    whenNodeResponseEnds(nodeRes, request.method === 'HEAD' || res.status === 204 || res.status === 304, done)
    return res
  }
  // Read at once: srvx's fast response forgets it once node has sent it.
  const status = res.status
  return countWebBody(res, (bytes) => done(status, bytes))
}

/**
 * Calls `done(status, bytes)` once when node's `res` has been sent or abandoned ('close' either
 * way): the status sent (`CLIENT_CLOSED` if its head never was) and the body bytes written, unless
 * the response is `bodiless` (HEAD, 204, 304); a status set to 204 or 304 later counts 0 too.
 */
export function whenNodeResponseEnds(
  res: ServerResponse,
  bodiless: boolean,
  done: (status: number, bytes: number) => void,
): void {
  let bytes = 0
  if (!bodiless) {
    const write = res.write
    const end = res.end
    const add = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string')
        bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      else if (chunk instanceof Uint8Array) bytes += chunk.byteLength
    }
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      add(chunk, rest[0])
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
    } as ServerResponse['write']
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') add(chunk, rest[0])
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest)
    } as ServerResponse['end']
  }
  // node emits 'close' once per response, after 'finish' or when the connection went away first
  // (so `on`: `once` would wrap the listener and remove it again on every request).
  // A 204 or 304 is sent without a body, whatever was passed to end().
  res.on('close', () => {
    if (!res.headersSent) return done(CLIENT_CLOSED, 0)
    const status = res.statusCode
    done(status, status === 204 || status === 304 ? 0 : bytes)
  })
}

function countWebBody(res: Response, done: (bytes: number) => void): Response {
  if (!res.body) {
    done(0)
    return res
  }
  const reader = res.body.getReader()
  let bytes = 0
  let reported = false
  const report = () => {
    if (reported) return
    reported = true
    done(bytes)
  }
  // A pull stream rather than a TransformStream: a reader that gives up (cancel) finishes the
  // response too, which a transformer cannot see on Node 20.
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read()
        if (next.done) {
          controller.close()
          return report()
        }
        bytes += next.value.byteLength
        controller.enqueue(next.value)
      } catch (err) {
        controller.error(err)
        report()
      }
    },
    cancel(reason) {
      report()
      return reader.cancel(reason)
    },
  })
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers })
}
