import { cast, from } from 'vela/dbl'
import type { RecordOf } from 'vela/dbl'
import { repo } from '../repo.ts'
import { Message } from '../schemas/message.ts'

export type ChatMessage = RecordOf<typeof Message>

/** What the server sends on a room's sockets, as JSON text frames. */
export type Event =
  | { readonly type: 'history'; readonly messages: readonly ChatMessage[] }
  | { readonly type: 'message'; readonly message: ChatMessage }
  | { readonly type: 'joined' | 'left'; readonly name: string }
  | { readonly type: 'error'; readonly errors: Record<string, unknown> }

/** A room's name: lowercase letters, digits and dashes, as in `/ws/rooms/lobby`. */
export const ROOM = /^[a-z0-9-]{1,32}$/

/**
 * The topic of a room. Topics are app-wide (every WebSocket route shares them), so the name says
 * what it is for: `room:lobby`.
 */
export const topicOf = (room: string) => `room:${room}`

export const encode = (event: Event) => JSON.stringify(event)

/** The last `limit` messages of a room, oldest first. */
export async function recent(room: string, limit = 50): Promise<ChatMessage[]> {
  const newest = await repo.all(from(Message).where('room', '=', room).orderBy(['id', 'desc']).limit(limit))
  return newest.reverse()
}

/** Keeps a message: `{ ok: true, value }` with its id and time, or `{ ok: false, error }` with the changeset. */
export function save(room: string, author: string, params: Record<string, unknown>) {
  const cs = cast(Message, null, params, ['body'])
    .validateRequired(['body'])
    .validateLength('body', { max: 1000 })
    .change({ room, author })
  return repo.insert(cs)
}
