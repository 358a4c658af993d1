/**
 * The production listener: node:http answering through `app.handleNode` (the direct node path,
 * server/exchange/node.ts), WebSocket upgrades through `app.upgrade` (websockets.ts), requests
 * node's parser rejects with a clear status (client-errors.ts), keep-alive, header, request and
 * send timeouts from the config (the last: server/exchange/send-timeout.ts), and a close that
 * flips the app's readiness to draining, stops accepting, answers the requests already sent with
 * `Connection: close` (up to a timeout, drain.ts) and then drops what is left. Shutdown on
 * signals: shutdown.ts.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { VelaApp } from '../contracts/app.ts'
import { setSendTimeout } from '../exchange/send-timeout.ts'
import { answerClientErrors } from './client-errors.ts'
import type { IdleConnections } from './drain.ts'
import { trackConnections } from './drain.ts'
import type { WebSocketServer } from './websockets.ts'
import { attachWebSockets } from './websockets.ts'

/** A running HTTP server made by `listen`: its URLs and port, its WebSockets, and a graceful `close`. */
export interface Listener {
  /** A URL a client on this machine can use: `127.0.0.1` when the socket listens on every IPv4/IPv6 interface. */
  readonly url: string
  /** Where the socket is bound, as a URL: `http://0.0.0.0:8080` or `http://[::]:8080` on every interface. */
  readonly address: string
  readonly port: number
  readonly server: Server
  /** The WebSocket connections of `ws` routes. */
  readonly websockets: WebSocketServer
  /**
   * Drains and closes (drain.ts): the app's readiness turns `draining`; after `drainDelayMs` the
   * listening socket closes, WebSockets close with 1001, requests already sent are answered with
   * `Connection: close`, idle connections close as `idle` says; after `timeoutMs` whatever is
   * left is dropped. Resolves when all is closed; a second call gets the same promise.
   */
  close(opts?: CloseOptions): Promise<void>
}

/** Options of `listener.close(...)`: how long to drain, and what to do with idle connections. */
export interface CloseOptions {
  /** How long requests already sent may take to be answered (default `server.shutdownTimeout`, 10 s). */
  timeoutMs?: number
  /** How long to go on accepting once readiness says `draining` (default `server.drainDelay`, 0). */
  drainDelayMs?: number
  /**
   * Idle keep-alive connections: `'wait'` (default) until a request on them is answered or their
   * keep-alive timeout passes, so no request a client sends is lost; `'close'` at once (faster,
   * for tests: a client writing on one at that moment loses its request).
   */
  idle?: IdleConnections
}

/** Options of `listen(app, opts)`: where to listen, overriding the app's `server.port` and `server.host`. */
export interface ListenOptions {
  /** The port (default `server.port`; 0 picks a free one). */
  port?: number
  /** The address (default `server.host`, else every interface). */
  host?: string
}

let rejectionGuard = false

/**
 * Serves `app` over HTTP with node's `http` server, WebSocket routes included.
 *
 * The config's keep-alive, header, request and send timeouts apply. Resolves once the socket listens. It does not
 * run the app's start hook: call `app.start()` (the readiness endpoint answers 503 until then).
 *
 * @example
 * ```ts
 * import { createApp, installShutdown, listen } from 'vela'
 * import config from './app.ts'
 *
 * const app = createApp(config)
 * const listener = await listen(app, { port: Number(process.env.PORT) || 8080 })
 * await app.start()
 * installShutdown(listener, app)
 * console.log(`listening on ${listener.url}`)
 * ```
 */
export async function listen(app: VelaApp, opts: ListenOptions = {}): Promise<Listener> {
  const s = app.config.server
  // Read once: the drain swaps this very listener for one that closes connections (drain.ts).
  const handler = app.handleNode
  const server = createServer(
    {
      requestTimeout: s.requestTimeout,
      headersTimeout: s.headersTimeout,
      keepAliveTimeout: s.keepAliveTimeout,
      // A repeated header is joined with `, ` rather than dropped, so routing sees two `Host`
      // headers (a 400) and a repeated `Authorization` or `Content-Type` fails its check instead
      // of passing on whichever copy node kept.
      joinDuplicateHeaders: true,
      // How often node enforces the two timeouts above (its default, 30 s, would let short ones slip).
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.max(100, Math.floor(Math.min(s.headersTimeout, s.requestTimeout) / 4)),
      ),
    },
    handler,
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
  // Per connection, not per request: the timer itself is armed only when a write backs up.
  const sendTimeout = s.sendTimeout
  server.on('connection', (socket) => setSendTimeout(socket, sendTimeout))
  const websockets = attachWebSockets(server, app)
  const connections = trackConnections(server, handler, s.keepAliveTimeout)
  // A promise a handler forgot to await must not take the whole server down with it.
  if (!rejectionGuard) {
    rejectionGuard = true
    process.on('unhandledRejection', (reason) => console.error('[vela] unhandled promise rejection:', reason))
  }
  const { url, address, port } = urlsOf(server.address() as AddressInfo)
  let closing: Promise<void> | undefined

  async function drainAndClose({
    timeoutMs = s.shutdownTimeout,
    drainDelayMs = s.drainDelay,
    idle = 'wait',
  }: CloseOptions): Promise<void> {
    // Readiness first. Without a delay, all up to the first `await` below runs within `close()`:
    // once it returns, new connections are refused.
    app.drain()
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs))
    const closed = connections.drain(idle)
    // Open WebSockets would keep the server open forever: tell their clients we are going away.
    const wsClosed = websockets.closeAll({ code: 1001, timeoutMs })
    let timer: NodeJS.Timeout | undefined
    const forced = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        connections.destroyAll()
        resolve()
      }, timeoutMs)
      timer.unref()
    })
    await Promise.race([closed, forced])
    clearTimeout(timer)
    await Promise.all([closed, wsClosed])
  }

  return {
    url,
    address,
    port,
    server,
    websockets,
    close: (opts = {}) => (closing ??= drainAndClose(opts)),
  }
}

/** The bound address as a URL, and one a local client can use (a wildcard address is no destination). */
function urlsOf(bound: AddressInfo): { url: string; address: string; port: number } {
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address
  const address = `http://${host}:${bound.port}`
  const wildcard = host === '0.0.0.0' || host === '[::]'
  return { url: wildcard ? `http://127.0.0.1:${bound.port}` : address, address, port: bound.port }
}

/** For start lines: the bound address, saying so when it is every interface. */
export function listeningOn(listener: Pick<Listener, 'url' | 'address'>): string {
  return listener.address === listener.url ? listener.address : `${listener.address} (all interfaces)`
}
