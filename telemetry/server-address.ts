/**
 * Where a request was received, for the `server_address` / `server_port` metric labels: the
 * listening socket's local address and port on node's listener, else (in-process requests,
 * `app.fetch`) the configured `server.host` (`localhost` when unset) and `server.port`.
 *
 * Why not the request's `Host`: a client writes that header, so it would choose the series. The
 * local address is one of the machine's interfaces and the port one the server listens on, so the
 * label values stay as few as the server's own bindings whatever clients send. (Spans keep the
 * `Host` the client asked for as `server.address`: a span is one request, not a series.)
 */
import type { Socket } from 'node:net'
import type { ResolvedConfig } from '../server/contracts/config.ts'
import type { RequestFacts } from '../server/contracts/request.ts'

export interface LocalServer {
  readonly address: string
  readonly port: number
}

/** The fallback for requests without a socket: the configured host and port. */
export function configuredServer(config: Pick<ResolvedConfig, 'server'>): LocalServer {
  return { address: config.server.host || 'localhost', port: config.server.port }
}

/** What the runtime's exchange carries besides the facts: node's request, or an upgrade's web Request. */
interface Carried {
  readonly nodeRequest?: { readonly socket?: Socket }
  /** server/listener/websockets.ts puts the upgrade's socket on the Request it makes. */
  readonly request?: { readonly nodeSocket?: Socket }
}

/**
 * The server side of `facts`. The runtime hands observers its exchange, which carries node's
 * request (`nodeRequest`) on node's listener, and the socket on a WebSocket upgrade's Request;
 * node reads a socket's local address once and keeps it.
 */
export function localServer(facts: RequestFacts, fallback: LocalServer): LocalServer {
  const carried = facts as RequestFacts & Carried
  const socket = carried.nodeRequest?.socket ?? carried.request?.nodeSocket
  if (socket === undefined) return fallback
  // Kept per connection: a keep-alive connection's requests all arrived on the same address.
  let local = bySocket.get(socket)
  if (local === undefined) {
    const address = socket.localAddress
    const port = socket.localPort
    if (address === undefined || port === undefined) return fallback
    // A dual-stack listener (`::`) sees IPv4 clients on IPv4-mapped addresses: name them as IPv4.
    local = { address: address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address, port }
    bySocket.set(socket, local)
  }
  return local
}

const bySocket = new WeakMap<Socket, LocalServer>()
