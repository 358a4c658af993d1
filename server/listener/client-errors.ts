/**
 * Requests node's HTTP parser rejects (an unknown method, a request line or headers over the size
 * limit, a header timeout, broken framing, a body that is malformed or slower than
 * `requestTimeout`) get a clear status and a JSON message instead of node's bare "400 Bad
 * Request", then the connection is closed. The server goes on answering other connections.
 *
 * A failure in the body comes after the app was given the request: a client that closed its side
 * mid-body is gone (the app's read of the body rejects with `ClientClosedError`, observers count
 * 499); for the others the answer goes out on
 * the response the app holds (so observers count its status), the app's read of the body rejects
 * with the same error, and what the app answers later is dropped (server/exchange/node.ts). Once
 * that response has begun, or when it belongs to an earlier request on the connection (pipelining),
 * nothing can be said any more and the connection is dropped.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ClientClosedError, REQUEST_TIMEOUT } from '../errors/client-faults.ts'
import { httpError } from '../errors/http-error.ts'
import { failBody } from '../request-body.ts'
import { exchangeOf } from '../exchange/exchange.ts'

type Answer = readonly [status: number, message: string]

const byCode: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large: the request line and headers exceed the server limit'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large: the chunk extensions exceed the server limit'],
  HPE_INVALID_METHOD: [400, 'Bad Request: unknown HTTP method'],
  HPE_INVALID_URL: [400, 'Bad Request: invalid request target'],
  HPE_INVALID_HEADER_TOKEN: [400, 'Bad Request: invalid header name'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'Bad Request: invalid Content-Length'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Bad Request: both Content-Length and Transfer-Encoding given'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'Bad Request: invalid Transfer-Encoding'],
  HPE_INVALID_CHUNK_SIZE: [400, 'Bad Request: invalid chunk size'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, REQUEST_TIMEOUT],
}

// llhttp gives one code to several causes; its `reason` tells them apart.
const DUPLICATE_CONTENT_LENGTH: Answer = [400, 'Bad Request: duplicate Content-Length']
const BOTH_LENGTHS: Answer = [400, 'Bad Request: both Content-Length and Transfer-Encoding given']
const MALFORMED: Answer = [400, 'Bad Request: malformed HTTP request']

/** The status and message for an error of node's parser. */
export function answerFor(err: NodeJS.ErrnoException & { reason?: unknown }): Answer {
  const reason = typeof err.reason === 'string' ? err.reason : ''
  if (/^duplicate content-length/i.test(reason)) return DUPLICATE_CONTENT_LENGTH
  if (/can't be present with/i.test(reason)) return BOTH_LENGTHS
  return byCode[err.code ?? ''] ?? MALFORMED
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
}

const JSON_TYPE = 'application/json; charset=utf-8'

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // node's response to the request on this connection, once the app was given one (an internal, stable since node 0.x).
    const res = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
    if (res && err.code === 'HPE_INVALID_EOF_STATE') {
      // The client closed its side mid-body: it is gone; the app's read of the body says so.
      if (!res.req.complete) failBody(res.req, new ClientClosedError())
      socket.destroy()
      return
    }
    if (!socket.writable || (res && !answerable(res))) {
      socket.destroy()
      return
    }
    const [status, message] = answerFor(err)
    const body = JSON.stringify({ error: message })
    if (res) {
      failBody(res.req, httpError(status, message))
      const length = Buffer.byteLength(body)
      res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': length, connection: 'close' })
      res.end(body)
      // Reported to stream handlers as the request's body bytes, like every answer the exchange writes.
      ;(exchangeOf(res.req) as { countBody?(bytes: number): void } | undefined)?.countBody?.(length)
      return
    }
    socket.end(
      `HTTP/1.1 ${status} ${reasons[status]}\r\ncontent-type: ${JSON_TYPE}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
  })
}

/**
 * The failure is in the body of the request `res` answers (it is still arriving: a request whose
 * body was all read is not the one the parser failed on) and nothing of the answer has gone out.
 */
function answerable(res: ServerResponse & { req?: IncomingMessage }): boolean {
  return !res.headersSent && !res.destroyed && res.req !== undefined && !res.req.complete
}
