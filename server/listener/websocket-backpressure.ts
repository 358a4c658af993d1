/**
 * The bound on what one WebSocket connection may queue for its client (`maxBufferedBytes`): a
 * client that stops reading must not make the server hold everything sent to it.
 *
 * **Choice:** a message sent while more than the bound is already queued is dropped, and the
 * connection is closed with 1013 (Try Again Later: the client fell behind and may reconnect; it
 * broke no policy, which 1008 would say). The close frame waits behind the backlog, so a client
 * that does not read it within `closeTimeout` (1 s by default) has its socket destroyed, which frees the
 * backlog. The check comes before queueing, so one message larger than the bound still goes out
 * on an idle connection: the queue holds at most the bound plus one message.
 *
 * Every way a hook sends (`peer.send`, `peer.publish`, a peer taken from `peer.peers`) ends in the
 * `send` of the `ws` socket under the crossws peer, so the check sits there, once per connection.
 */
import type { Peer } from 'crossws'

/** The `ws` socket under a crossws peer, as far as the bound uses it. */
interface Socket {
  readonly readyState: number
  readonly bufferedAmount: number
  send(...args: unknown[]): void
  close(code: number, reason: string): void
  terminate(): void
}

const OPEN = 1
export const OVERFLOW_CLOSE = { code: 1013, reason: 'Send buffer full' } as const

/**
 * Bounds the sends of `peer`'s connection; `overflowed` is called when the bound closes it, and the
 * socket is destroyed `closeTimeout` ms later unless the client read the close by then.
 */
export function boundSends(peer: Peer, maxBufferedBytes: number, closeTimeout: number, overflowed: () => void): void {
  // crossws's `websocket` reads through to the ws socket, and a property set on it lands there.
  const socket = peer.websocket as unknown as Socket
  const send = socket.send
  socket.send = function boundedSend(this: Socket, ...args: unknown[]) {
    if (socket.bufferedAmount > maxBufferedBytes && socket.readyState === OPEN) {
      overflowed()
      socket.close(OVERFLOW_CLOSE.code, OVERFLOW_CLOSE.reason)
      setTimeout(() => socket.terminate(), closeTimeout).unref()
      return
    }
    send.apply(this, args)
  }
}
