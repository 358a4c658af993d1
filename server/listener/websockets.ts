/**
 * WebSockets on a node:http server: listens to `upgrade` events, asks the app whether to accept
 * (`app.upgrade`, the route table and pipeline), answers refusals over HTTP and hands accepted
 * sockets to crossws, which runs the route's hooks. Keeps every open socket, so shutdown can close
 * them with 1001 (Going Away).
 *
 * Limits come with the app's decision (the route's, else `server.websocket`): `maxMessageBytes` is
 * `ws`'s `maxPayload`, which closes with 1009 as soon as a frame header announces more, before
 * reading it; that option belongs to a `ws` server, so there is one crossws adapter per distinct
 * value (most apps: one). `maxBufferedBytes` bounds each connection's sends
 * (websocket-backpressure.ts), `maxMessagesPerSecond` what it receives (websocket-rate.ts), and
 * `idleTimeout` how long it may stay silent (websocket-liveness.ts).
 *
 * Topics: every peer is in one crossws namespace, so a topic spans the app's routes, and the app's
 * topics are each adapter's sync backplane (server/websocket/topics.ts).
 */
import type { IncomingMessage, Server } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'
import type { Hooks, Peer, SyncAdapter } from 'crossws'
import type { NodeAdapter } from 'crossws/adapters/node'
import nodeAdapter from 'crossws/adapters/node'
import type { WebSocketLimits } from '../contracts/websocket.ts'
import type { UpgradeDecision } from '../contracts/handlers.ts'
import type { WebSocketContext, WebSocketHandler, WebSocketHooks } from '../websocket/define.ts'
import { OVERFLOW_CLOSE, boundSends } from './websocket-backpressure.ts'
import type { Watched } from './websocket-liveness.ts'
import { IDLE_CLOSE, createLiveness } from './websocket-liveness.ts'
import { MessageRate, RATE_CLOSE } from './websocket-rate.ts'

/** A listener's WebSocket connections (`listener.websockets`): how many are open, and closing them all. */
export interface WebSocketServer {
  /** Sockets currently open. */
  readonly openCount: number
  /** Each topic the open sockets are subscribed to, with how many subscribe to it (the dev dashboard shows them). */
  topicCounts(): Map<string, number>
  /**
   * Leaves the app's topics, closes every open socket with `code` (default 1001) and resolves once
   * all are closed or `timeoutMs` passed (then the rest are dropped). Upgrades asked for after it
   * get a 503.
   */
  closeAll(opts?: { code?: number; reason?: string; timeoutMs?: number }): Promise<void>
}

interface UpgradableApp {
  upgrade(request: Request): Promise<UpgradeDecision>
  /** The app's topics: what peers publish reaches the app's other listeners and instances through `relay`. */
  readonly topics?: { readonly relay: SyncAdapter }
}

// crossws scopes topics to a namespace (by default the URL path): one for all, so a topic is app-wide.
const getNamespace = () => 'vela'

type Log = (message: string, error: unknown) => void

/**
 * A web Request for the upgrade's IncomingMessage, with the peer address the app reads as
 * `req.peer`, and the socket (`nodeSocket`), whose local address names the server in metrics.
 */
function toRequest(req: IncomingMessage): Request {
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http'
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  const request = new Request(new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`), {
    method: req.method,
    headers,
  })
  Object.defineProperty(request, 'ip', { value: req.socket.remoteAddress })
  Object.defineProperty(request, 'nodeSocket', { value: req.socket })
  return request
}

/** Writes a whole HTTP response on a socket that was never handed to node's response writer, then closes it. */
async function writeResponse(socket: Duplex, res: Response): Promise<void> {
  const body = Buffer.from(await res.arrayBuffer())
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`]
  for (const [name, value] of res.headers)
    if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`)
  lines.push(`content-length: ${body.length}`, 'connection: close')
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]))
}

interface Vela {
  vela: {
    handler: WebSocketHandler
    context: WebSocketContext
    headers: Headers
    log: Log
    limits: Readonly<Required<WebSocketLimits>>
    /** Closed by a limit: what its hooks' `close` gets (even when the socket had to be destroyed); nothing more reaches `message`. */
    closedBy: { readonly code: number; readonly reason: string } | undefined
    /** The message rate bound, if the route has one. */
    rate: MessageRate | undefined
    /** The idle sweep's record, if the route has an idle timeout. */
    watched?: Watched
    /** The peer the hooks get, made on the first hook call. */
    peer?: Peer
  }
}

/**
 * The peer the hooks get: crossws's, with the Vela context. What reads a private field of the
 * peer (`websocket`) or compares peers (`publish` skips its sender) goes to crossws's own peer.
 */
function hookPeer(peer: Peer, context: WebSocketContext): Peer {
  return Object.create(peer, {
    context: { value: context },
    websocket: { get: () => peer.websocket },
    publish: { value: peer.publish.bind(peer) },
  }) as Peer
}

function contextOf(peer: Peer): Vela {
  return peer.context as unknown as Vela
}

export function attachWebSockets(
  server: Server,
  app: UpgradableApp,
  log: Log = (m, e) => console.error(`[vela] ${m}:`, e),
): WebSocketServer {
  // A hook failing must not take the process down: log it, close the socket with 1011.
  const call = <K extends keyof WebSocketHooks>(name: K, peer: Peer, ...args: unknown[]) => {
    const vela = contextOf(peer).vela
    const { handler, context, log: appLog } = vela
    const fn = handler[name] as ((...a: unknown[]) => unknown) | undefined
    if (!fn) return
    const failed = (err: unknown) => {
      appLog(`WebSocket ${name} hook of ${context.req.route.path} failed`, err)
      if (name !== 'close') peer.close(1011, 'Internal Error')
    }
    vela.peer ??= hookPeer(peer, context)
    try {
      const out = fn.call(handler, vela.peer, ...args) as Promise<unknown> | undefined
      if (out && typeof out.then === 'function') out.then(undefined, failed)
    } catch (err) {
      failed(err)
    }
  }
  const liveness = createLiveness()
  /** Closes a connection that went over its message rate (websocket-rate.ts). */
  const overRate = (peer: Peer, vela: Vela['vela']) => {
    vela.closedBy = RATE_CLOSE
    const socket = peer.websocket as unknown as { terminate(): void }
    peer.close(RATE_CLOSE.code, RATE_CLOSE.reason)
    setTimeout(() => socket.terminate(), vela.limits.closeTimeout).unref()
  }
  const hooks: Partial<Hooks> = {
    // Headers plugins set on the upgrade request (a session cookie) go out with the 101.
    upgrade: (request) => ({ headers: (request.context as unknown as Vela).vela.headers }),
    open: (peer) => {
      const vela = contextOf(peer).vela
      const { maxBufferedBytes, idleTimeout, closeTimeout } = vela.limits
      boundSends(peer, maxBufferedBytes, closeTimeout, () => (vela.closedBy ??= OVERFLOW_CLOSE))
      if (idleTimeout > 0)
        vela.watched = liveness.watch(peer.websocket as never, idleTimeout, () => (vela.closedBy ??= IDLE_CLOSE))
      call('open', peer)
    },
    message: (peer, message) => {
      const vela = contextOf(peer).vela
      if (vela.watched) vela.watched.alive = true
      if (vela.closedBy) return
      if (vela.rate && !vela.rate.take()) return overRate(peer, vela)
      call('message', peer, message)
    },
    close: (peer, details) => {
      const vela = contextOf(peer).vela
      vela.watched?.unwatch()
      call('close', peer, vela.closedBy ?? details)
    },
    error: (peer, error) => call('error', peer, error),
  }
  const adapters = new Map<number, NodeAdapter>()
  const adapterFor = (maxMessageBytes: number) => {
    let adapter = adapters.get(maxMessageBytes)
    if (adapter) return adapter
    // crossws's own idle sweep is off: the listener's (websocket-liveness.ts) takes each route's timeout.
    adapter = nodeAdapter({
      hooks,
      getNamespace,
      sync: app.topics?.relay,
      idleTimeout: 0,
      serverOptions: { maxPayload: maxMessageBytes },
    })
    adapters.set(maxMessageBytes, adapter)
    return adapter
  }
  const open = new Set<Duplex>()
  // Set by closeAll (shutdown): a socket opened after it would only be dropped at the deadline.
  let closing = false

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    if (closing) {
      void writeResponse(
        socket,
        Response.json({ error: 'Service Unavailable: the server is shutting down' }, { status: 503 }),
      )
      return
    }
    let request: Request
    try {
      request = toRequest(req)
    } catch {
      void writeResponse(socket, Response.json({ error: 'Bad Request: invalid request target' }, { status: 400 }))
      return
    }
    app.upgrade(request).then(
      (decision) => {
        if (!decision.accept) return writeResponse(socket, decision.response)
        open.add(socket)
        socket.once('close', () => open.delete(socket))
        // crossws takes the request's `context` as the peer's context.
        const { handler, context, headers, log, limits } = decision
        const vela: Vela['vela'] = {
          handler,
          context,
          headers,
          log,
          limits,
          closedBy: undefined,
          rate: MessageRate.of(limits.maxMessagesPerSecond),
        }
        return adapterFor(limits.maxMessageBytes).handleUpgrade(
          req,
          socket,
          head,
          Object.assign(request, { context: { vela } }),
        )
      },
      (err) => {
        log(`WebSocket upgrade of ${req.url} failed`, err)
        return writeResponse(socket, Response.json({ error: 'Internal Server Error' }, { status: 500 }))
      },
    )
  })

  return {
    get openCount() {
      return open.size
    },
    topicCounts() {
      const counts = new Map<string, number>()
      for (const adapter of adapters.values())
        for (const peers of adapter.peers.values())
          for (const peer of peers) for (const topic of peer.topics) counts.set(topic, (counts.get(topic) ?? 0) + 1)
      return counts
    },
    async closeAll({ code = 1001, reason = 'Server shutting down', timeoutMs = 5000 } = {}) {
      closing = true
      // Leaves the app's topics: nothing published from now on is for this listener.
      for (const adapter of adapters.values()) void adapter.sync?.close?.()
      if (open.size === 0) return
      const closed = Promise.all([...open].map((s) => new Promise((resolve) => s.once('close', resolve))))
      for (const adapter of adapters.values()) adapter.closeAll(code, reason)
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          for (const s of open) s.destroy()
          resolve()
        }, timeoutMs)
        timer.unref()
      })
      await Promise.race([closed, late])
      clearTimeout(timer)
      liveness.stop()
    },
  }
}
