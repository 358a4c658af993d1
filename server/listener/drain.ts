/**
 * Draining keep-alive connections when the listener closes. `server.close()` stops accepting and
 * drops connections idle at that moment, but a keep-alive connection busy with a request becomes
 * idle only after its answer, and node would then keep it open until its keep-alive timeout,
 * delaying shutdown by seconds. So on drain: answers not yet started go out with
 * `Connection: close` (node closes the connection after them), and connections that turn idle
 * are closed as they do.
 */
import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface ConnectionTracker {
  /** Starts draining; returns a function that stops the idle sweep. */
  drain(): () => void
}

export function trackConnections(server: Server, sweepEveryMs = 50): ConnectionTracker {
  // One Set entry per connection (not per request), so tracking costs nothing per request.
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    drain() {
      for (const socket of sockets) {
        // node's current response on this connection (an internal, stable since node 0.x).
        const res = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage
        if (res && !res.headersSent) res.setHeader('connection', 'close')
      }
      server.closeIdleConnections()
      const timer = setInterval(() => server.closeIdleConnections(), sweepEveryMs)
      timer.unref()
      return () => clearInterval(timer)
    },
  }
}
