import { status } from 'vela'
import type { VelaRequest } from 'vela'
import { ROOM } from './rooms.ts'

/** Who is on a socket: the name they gave, in the room of the path. */
export type Chatter = { readonly name: string; readonly room: string }

/**
 * The WebSocket group's check, run on the upgrade request before the connection opens: a room
 * name that fits and `?name=` (1 to 24 characters). Anything else is answered over HTTP with a 400,
 * and no socket is opened. What it returns is `peer.context.authData` in the hooks.
 */
export function chatter(req: VelaRequest) {
  const room = req.bindings.room ?? ''
  const name = typeof req.query.name === 'string' ? req.query.name.trim() : ''
  if (!ROOM.test(room)) return status(400, { error: 'a room name is 1 to 32 lowercase letters, digits or dashes' })
  if (name.length < 1 || name.length > 24) return status(400, { error: 'give a name of 1 to 24 characters: ?name=' })
  const who: Chatter = { name, room }
  return who
}
