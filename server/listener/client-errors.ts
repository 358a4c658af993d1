/**
 * Requests node's HTTP parser rejects before they reach the app (an unknown method, a request
 * line or headers over the size limit, a header timeout, broken framing) get a clear status and a
 * JSON message instead of node's bare "400 Bad Request", then the connection is closed. The
 * server goes on answering other connections.
 */
import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'

const byCode: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large: the request line and headers exceed the server limit'],
  HPE_INVALID_METHOD: [400, 'Bad Request: unknown HTTP method'],
  HPE_INVALID_URL: [400, 'Bad Request: invalid request target'],
  HPE_INVALID_HEADER_TOKEN: [400, 'Bad Request: invalid header name'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'Bad Request: invalid Content-Length'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Bad Request: both Content-Length and Transfer-Encoding given'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'Bad Request: invalid Transfer-Encoding'],
  HPE_INVALID_CHUNK_SIZE: [400, 'Bad Request: invalid chunk size'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout: the request was not received in time'],
}

const reasons: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy()
      return
    }
    const [status, message] = byCode[err.code ?? ''] ?? [400, 'Bad Request: malformed HTTP request']
    const body = JSON.stringify({ error: message })
    socket.end(
      `HTTP/1.1 ${status} ${reasons[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    )
  })
}
