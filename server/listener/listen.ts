/**
 * The production listener: node:http answering through `app.handleNode` (the direct node path,
 * server/exchange/node.ts), WebSocket upgrades through `app.upgrade` (websockets.ts), requests
 * node's parser rejects with a clear status (client-errors.ts), keep-alive, header and request
 * timeouts from the config, and a close that stops accepting, lets in-flight requests finish (up
 * to a timeout, drain.ts) and then drops what is left. Shutdown on signals: shutdown.ts.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { VelaApp } from '../contracts/app.ts'
import { answerClientErrors } from './client-errors.ts'
import { trackConnections } from './drain.ts'
import type { WebSocketServer } from './websockets.ts'
import { attachWebSockets } from './websockets.ts'

export interface Listener {
  readonly url: string
  readonly port: number
  readonly server: Server
  /** The WebSocket connections of `ws` routes. */
  readonly websockets: WebSocketServer
  /**
   * Stops accepting; closes WebSockets with 1001; waits for in-flight requests up to `timeoutMs`
   * (default 10 s), then closes the rest.
   */
  close(opts?: { timeoutMs?: number }): Promise<void>
}

export interface ListenOptions {
  port?: number
  host?: string
}

let rejectionGuard = false

export async function listen(app: VelaApp, opts: ListenOptions = {}): Promise<Listener> {
  const s = app.config.server
  const server = createServer(
    {
      requestTimeout: s.requestTimeout,
      headersTimeout: s.headersTimeout,
      keepAliveTimeout: s.keepAliveTimeout,
      // How often node enforces the two timeouts above (its default, 30 s, would let short ones slip).
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(Math.min(s.headersTimeout, s.requestTimeout) / 4))),
    },
    app.handleNode,
  )
  server.keepAliveTimeout = s.keepAliveTimeout
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port: opts.port ?? s.port, host: opts.host ?? s.host }, () => {
      server.off('error', reject)
      resolve()
    })
  })
  answerClientErrors(server)
  const websockets = attachWebSockets(server, app)
  const connections = trackConnections(server)
  // A promise a handler forgot to await must not take the whole server down with it.
  if (!rejectionGuard) {
    rejectionGuard = true
    process.on('unhandledRejection', (reason) => console.error('[vela] unhandled promise rejection:', reason))
  }
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`,
    port: address.port,
    server,
    websockets,
    async close({ timeoutMs = 10_000 } = {}) {
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())))
      const stopSweep = connections.drain()
      // Open WebSockets would keep the server open forever: tell their clients we are going away.
      const wsClosed = websockets.closeAll({ code: 1001, timeoutMs })
      let timer: NodeJS.Timeout | undefined
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          server.closeAllConnections()
          resolve()
        }, timeoutMs)
        timer.unref()
      })
      await Promise.race([closed, forced])
      clearTimeout(timer)
      await Promise.all([closed, wsClosed])
      stopSweep()
    },
  }
}
