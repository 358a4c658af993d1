/**
 * Idle WebSocket connections (`idleTimeout`): a peer whose machine vanished (power cut, a laptop
 * lid, a NAT that forgot the mapping) or a client that completes the handshake and then ignores
 * the socket would otherwise hold its socket and memory forever, since TCP alone never notices.
 *
 * Every `idleTimeout` the sweep pings each connection that uses it. A connection from which
 * nothing arrived since the previous sweep (no message, no ping, no pong) has its socket
 * destroyed (`terminate`): a close frame would wait behind whatever the dead peer never read, so
 * the hooks' `close` sees 1006 (closed without a close frame). A silent connection therefore goes
 * between one and two `idleTimeout`s after its last frame; a client that answers pings (browsers
 * and the usual libraries do it unasked) stays, however long it sends no message. The pings also
 * keep quiet connections alive through proxies that drop idle ones (nginx after 60 s by default),
 * which is why the default is 30 s.
 *
 * One interval timer per distinct `idleTimeout` among the open connections (most apps: one),
 * started by the first such connection and stopped with the last: no timer per connection.
 * crossws's node adapter has the same sweep, but with one timeout per adapter (the listener keeps
 * one adapter per `maxMessageBytes`, not per route) and a timer that runs from the adapter's
 * creation on, connections or not; it is turned off (`idleTimeout: 0` on the adapter).
 */

/** What the hooks' `close` gets for a connection the sweep destroyed: no close frame was exchanged. */
export const IDLE_CLOSE = { code: 1006, reason: 'Idle timeout' } as const

/** The `ws` socket under a crossws peer, as far as the sweep uses it. */
export interface PingableSocket {
  ping(): void
  terminate(): void
  on(event: 'ping' | 'pong', listener: () => void): unknown
}

/** One watched connection: `alive` is set again by whatever arrives from the client. */
export interface Watched {
  alive: boolean
  /** Stops watching (the connection closed). */
  unwatch(): void
}

interface Connection extends Watched {
  readonly socket: PingableSocket
  readonly timedOut: () => void
}

interface Sweep {
  readonly connections: Set<Connection>
  readonly timer: NodeJS.Timeout
}

export interface Liveness {
  /** Watches a connection whose route has `idleTimeout` > 0; `timedOut` is called before its socket is destroyed. */
  watch(socket: PingableSocket, idleTimeout: number, timedOut: () => void): Watched
  /** Stops every sweep (the listener closed). */
  stop(): void
}

export function createLiveness(): Liveness {
  const sweeps = new Map<number, Sweep>()

  const sweep = (connections: Set<Connection>) => {
    for (const c of connections) {
      if (!c.alive) {
        c.unwatch()
        c.timedOut()
        c.socket.terminate()
        continue
      }
      c.alive = false
      try {
        c.socket.ping()
      } catch {
        // Not open any more: its close is on the way.
      }
    }
  }

  return {
    watch(socket, idleTimeout, timedOut) {
      let s = sweeps.get(idleTimeout)
      if (!s) {
        const connections = new Set<Connection>()
        const timer = setInterval(sweep, idleTimeout, connections)
        timer.unref()
        sweeps.set(idleTimeout, (s = { connections, timer }))
      }
      const sweepOf = s
      const watched: Connection = {
        socket,
        timedOut,
        alive: true,
        unwatch() {
          // The last connection of a sweep stops its timer.
          if (!sweepOf.connections.delete(watched) || sweepOf.connections.size > 0) return
          clearInterval(sweepOf.timer)
          if (sweeps.get(idleTimeout) === sweepOf) sweeps.delete(idleTimeout)
        },
      }
      const seen = () => void (watched.alive = true)
      socket.on('pong', seen)
      socket.on('ping', seen)
      sweepOf.connections.add(watched)
      return watched
    },
    stop() {
      for (const s of sweeps.values()) clearInterval(s.timer)
      sweeps.clear()
    },
  }
}
