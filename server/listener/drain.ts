/**
 * Draining HTTP connections when the listener closes, without losing a request a client has
 * already sent. HTTP/1.1 gives a server no way to tell a client holding an idle keep-alive
 * connection to stop using it: closing that connection races with a client that is writing its
 * next request on it (the request is then lost: a reset, or an EOF with no answer). So draining:
 *
 * - stops listening at once: new connections are refused;
 * - answers with `Connection: close` every request not yet answered, and every request that
 *   arrives from now on (the request listener is swapped for one that says so: nothing is added to
 *   the request path before the drain), so node closes each connection right after its answer;
 * - `idle: 'wait'` (the default; what a signal's shutdown uses): leaves idle keep-alive
 *   connections open until a request arrives on them (answered, then closed) or until node's
 *   keep-alive timeout closes them, the time the client was told (`Keep-Alive: timeout=N`) it may
 *   reuse them; a connection that never sent a byte is given the same time from the drain;
 * - `idle: 'close'`: closes idle connections at once and as they turn idle (a client writing on
 *   one at that moment loses its request): for tests and the dev server, where a fast close
 *   matters more.
 *
 * The caller bounds it all (listen.ts closes whatever is left after `timeoutMs`).
 */
import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { NodeHandler } from '../contracts/handlers.ts'

export type IdleConnections = 'wait' | 'close'

export interface ConnectionTracker {
  /** Stops listening and drains; resolves once every connection has closed. */
  drain(idle: IdleConnections): Promise<void>
  /** Destroys every connection left (the drain's deadline passed). */
  destroyAll(): void
}

type ServerSocket = Socket & { _httpMessage?: ServerResponse | null }

export function trackConnections(
  server: Server,
  handler: NodeHandler,
  keepAliveTimeout: number,
  sweepEveryMs = 50,
): ConnectionTracker {
  // One Set entry per connection (not per request), so tracking costs nothing per request.
  const sockets = new Set<ServerSocket>()
  server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    drain(idle) {
      server.off('request', handler)
      server.on('request', (req, res) => {
        res.setHeader('connection', 'close')
        handler(req, res)
      })
      for (const socket of sockets) {
        // node's current response on this connection (an internal, stable since node 0.x).
        const res = socket._httpMessage
        if (res && !res.headersSent) res.setHeader('connection', 'close')
      }
      const closed = new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => (err ? reject(err) : resolve())
        if (idle === 'close') server.close(done)
        else closeListeningOnly(server, done)
      })
      let timer: NodeJS.Timeout
      if (idle === 'close') {
        timer = setInterval(() => server.closeIdleConnections(), sweepEveryMs)
      } else {
        // Idle connections that carried requests close on node's keep-alive timer; this one
        // closes those that never sent a byte, once they had as long.
        timer = setTimeout(() => {
          for (const socket of sockets) if (socket.bytesRead === 0 && !socket._httpMessage) socket.destroy()
        }, keepAliveTimeout)
      }
      timer.unref()
      return closed.finally(() => clearTimeout(timer))
    },
    destroyAll() {
      server.closeAllConnections()
    },
  }
}

/**
 * node's `server.close()` without the `closeIdleConnections()` it starts with (which destroys
 * the idle keep-alive connections this drain keeps): it stops listening, stops node's header and
 * request timeout checks, and calls `done` once the last connection has closed.
 */
function closeListeningOnly(server: Server, done: (err?: Error) => void): void {
  server.closeIdleConnections = () => {}
  try {
    server.close(done)
  } finally {
    Reflect.deleteProperty(server, 'closeIdleConnections')
  }
}
