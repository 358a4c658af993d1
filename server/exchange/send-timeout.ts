/**
 * The send timeout (`server.sendTimeout`): a client must take what the server writes. When a
 * write backs up (the connection's buffer is over its high-water mark, so node's `write` returned
 * false) the client has `sendTimeout` ms to drain it; if 'drain' does not come in time the
 * connection is destroyed, with whatever it buffered. A reader that takes a few bytes every few
 * seconds thus holds a connection and its memory for a bounded time.
 *
 * **Choice:** the timer is per connection and armed only when a write actually backs up: a reply
 * that node hands to the kernel in one go costs one property read (`writableNeedDrain`), no timer.
 * The listener sets each connection's timeout as it accepts it (listen.ts); a connection from
 * another server (the Vite dev server, an app's own `node:http` server) has the default.
 */
import type { Socket } from 'node:net'

/** `server.sendTimeout` when the config does not set it: 30 s. */
export const DEFAULT_SEND_TIMEOUT = 30_000

const kTimeout = Symbol('vela.sendTimeout')
const kTimer = Symbol('vela.sendTimer')

type Watched = Socket & { [kTimeout]?: number; [kTimer]?: NodeJS.Timeout }

/** Sets the send timeout of one connection, in ms (0: none). */
export function setSendTimeout(socket: Socket, ms: number): void {
  ;(socket as Watched)[kTimeout] = ms
}

/**
 * Call after writing to `socket`: if the write backed up, the client must drain the connection
 * within its send timeout or the connection is destroyed. Nothing happens (and nothing is
 * allocated) when the write went through, or while a timer is already armed.
 */
export function watchDrain(socket: Socket | null | undefined): void {
  if (!socket?.writableNeedDrain) return
  const s = socket as Watched
  if (s[kTimer] !== undefined) return
  const ms = s[kTimeout] ?? DEFAULT_SEND_TIMEOUT
  if (ms === 0) return
  const timer = setTimeout(() => s.destroy(), ms)
  timer.unref()
  s[kTimer] = timer
  const clear = () => {
    clearTimeout(timer)
    s[kTimer] = undefined
    s.off('drain', clear)
    s.off('close', clear)
  }
  s.once('drain', clear)
  s.once('close', clear)
}
