/**
 * WS /ws/rooms/:room: a chat room on WebSocket topics. A client joining gets `joined <room>`; each
 * text message it sends reaches everyone else in the room, on every instance of the playground
 * (through Redis pub/sub when REDIS_URL is set: src/redis.ts; in this process otherwise).
 */
import { defineWebSocket } from 'vela'
import type { WebSocketPeer } from 'vela'

const topic = (peer: WebSocketPeer) => `room:${peer.context.bindings.room}`

export const socket = defineWebSocket({
  open(peer) {
    peer.subscribe(topic(peer))
    peer.send(`joined ${peer.context.bindings.room}`)
  },
  message(peer, message) {
    peer.publish(topic(peer), message.text())
  },
})
