/**
 * A response queued behind another on its connection: the client sent its next request before the
 * previous answer was out (pipelining), so node holds the response, with no socket, until the ones
 * before it have finished. When the connection closes first (the client left, or the send timeout
 * destroyed it under the response ahead), node 24 and later destroy and close the queued
 * responses; node 22 never does, so whatever waits for their 'close' would wait forever: a
 * streamed body would never be cancelled (a file body keeps its descriptor until the garbage
 * collector closes it) and observers would never see the request end. `closeWithConnection` gives them node 24's ending.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

const kQueued = Symbol('vela.queuedResponses')

type Connection = Socket & { [kQueued]?: Set<ServerResponse> }

/** Destroys and closes `res` when its connection closes before it was given the connection. */
export function closeWithConnection(req: IncomingMessage, res: ServerResponse): void {
  if (res.socket) return
  const connection = req.socket as Connection
  let queued = connection[kQueued]
  if (queued === undefined) {
    // One listener per connection, however many requests a client queues on it.
    const responses = (queued = connection[kQueued] = new Set())
    connection.once('close', () => {
      for (const r of responses) abandon(r)
      responses.clear()
    })
  }
  queued.add(res)
  // Its turn came: node itself closes a response that holds the connection.
  res.once('socket', () => queued.delete(res))
}

function abandon(res: ServerResponse): void {
  let closed = false
  res.once('close', () => (closed = true))
  if (!res.destroyed) res.destroy()
  // On the next tick, as node emits it; not twice where node already did.
  process.nextTick(() => closed || res.emit('close'))
}
