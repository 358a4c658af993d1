/** WS /ws: answers each text message `m` with `Echo: m`. */
import { defineWebSocket } from 'vela'

export const socket = defineWebSocket({
  message(peer, message) {
    peer.send(`Echo: ${message.text()}`)
  },
})
