import { defineWebSocket, json, status, view } from 'vela'
import type { VelaRequest, WebSocketPeer } from 'vela'
import { errorsToJson } from 'vela/dbl'
import type { Chatter } from '../chat/chatter.ts'
import { encode, recent, save, topicOf } from '../chat/rooms.ts'

type Peer = WebSocketPeer<Chatter>

/** The message a client sent: a JSON object such as `{ "body": "hello" }`; anything else is `{}`. */
function paramsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/**
 * WS /ws/rooms/:room?name=: a chat room. On joining, the client gets the room's recent messages
 * and the others are told; each message it sends is kept and reaches everyone in the room, the
 * sender included (its copy, with the id and time, says it was kept); one the changeset refuses
 * goes back to the sender alone as an error.
 */
export const socket = defineWebSocket<Chatter>(
  {
    async open(peer: Peer) {
      const { name, room } = peer.context.authData
      peer.subscribe(topicOf(room))
      peer.send(encode({ type: 'history', messages: await recent(room) }))
      // peer.publish reaches every subscriber but this peer.
      peer.publish(topicOf(room), encode({ type: 'joined', name }))
    },
    async message(peer: Peer, message) {
      const { name, room } = peer.context.authData
      const res = await save(room, name, paramsOf(message.text()))
      if (res.ok) {
        // req.publish reaches every subscriber, this peer included.
        peer.context.req.publish(topicOf(room), encode({ type: 'message', message: res.value }))
      } else {
        peer.send(encode({ type: 'error', errors: errorsToJson(res.error) }))
      }
    },
    close(peer: Peer) {
      const { name, room } = peer.context.authData
      peer.publish(topicOf(room), encode({ type: 'left', name }))
    },
  },
  // A chat message is short and people type slowly: smaller bounds than the defaults (1 MiB, 100/s).
  { maxMessageBytes: 16 * 1024, maxMessagesPerSecond: 10 },
)

/** GET /api/rooms/:room/messages: `{ messages }`, the room's recent messages, oldest first. */
export async function index(req: VelaRequest) {
  return json({ messages: await recent(String(req.bindings.room)) })
}

/**
 * POST /api/rooms/:room/messages `{ author, body }`: a message from outside the chat (a bot, a
 * deploy notice). 201 with the message, which everyone in the room receives; or 422 `{ errors }`.
 */
export async function create(req: VelaRequest) {
  const room = String(req.bindings.room)
  const { author, ...params } = req.params as { author: string }
  const res = await save(room, author, params)
  if (!res.ok) return status(422, { errors: errorsToJson(res.error) })
  req.publish(topicOf(room), encode({ type: 'message', message: res.value }))
  return json(res.value, { status: 201 })
}

/** GET /: the chat page (src/views/rooms.liquid) and its script, priv/static/chat.js. */
export function page() {
  return view({})
}
