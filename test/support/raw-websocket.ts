/**
 * WebSocket clients on raw sockets, for faults where the bytes and the timing matter: a frame
 * header announcing a huge message whose payload is then streamed (nothing held in memory), or a
 * client that stops reading.
 */
import { randomBytes } from 'node:crypto'
import net from 'node:net'

export interface RawWebSocket {
  readonly socket: net.Socket
  /** Resolves with the code of the first close frame the server sends (`undefined` if the socket ends first, or after `ms`), reading past any other frames. */
  closeCode(ms: number): Promise<number | undefined>
  /** The first frame the server sends, as `close <code>`, `text <text>` or `binary <bytes>` (`undefined` if the socket ends first, or after `ms`). */
  firstFrame(ms: number): Promise<string | undefined>
}

interface Frame {
  opcode: number
  payload: Buffer
}

/** Opens `path` on 127.0.0.1:`port`; resolves once the server answered 101. */
export function openRawWebSocket(port: number, path: string): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const key = randomBytes(16).toString('base64')
    socket.once('error', reject)
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    )
    let head = Buffer.alloc(0)
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return
      socket.off('data', onHead)
      const status = head.subarray(0, end).toString('latin1').split(' ')[1]
      if (status !== '101') return reject(new Error(`upgrade answered ${head.subarray(0, end).toString('latin1')}`))
      resolve(withFrames(socket, head.subarray(end + 4)))
    }
    socket.on('data', onHead)
  })
}

function withFrames(socket: net.Socket, received: Buffer): RawWebSocket {
  let buffered = received
  let ended = false
  const waiters = new Set<() => void>()
  const wake = () => waiters.forEach((w) => w())
  socket.on(
    'data',
    (chunk: Buffer) => ((buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk), wake()),
  )
  socket.on('close', () => ((ended = true), wake()))
  socket.on('error', () => undefined)
  // Server frames are unmasked: opcode, 7-bit length or 126 (16-bit) / 127 (64-bit) extended.
  const nextFrame = (): Frame | undefined => {
    if (buffered.length < 2) return undefined
    let length = buffered[1]! & 0x7f
    let at = 2
    if (length === 126) [length, at] = buffered.length < 4 ? [-1, 0] : [buffered.readUInt16BE(2), 4]
    else if (length === 127) [length, at] = buffered.length < 10 ? [-1, 0] : [Number(buffered.readBigUInt64BE(2)), 10]
    if (length < 0 || buffered.length < at + length) return undefined
    const frame = { opcode: buffered[0]! & 0x0f, payload: buffered.subarray(at, at + length) }
    buffered = buffered.subarray(at + length)
    return frame
  }
  /** The first frame passing `wanted`, skipping the others. */
  const firstOf = (wanted: (f: Frame) => boolean, ms: number) =>
    new Promise<Frame | undefined>((resolve) => {
      const timer = setTimeout(() => done(undefined), ms)
      const done = (frame: Frame | undefined) => (clearTimeout(timer), waiters.delete(check), resolve(frame))
      const check = () => {
        for (let f = nextFrame(); f; f = nextFrame()) if (wanted(f)) return done(f)
        if (ended) done(undefined)
      }
      waiters.add(check)
      check()
    })
  const described = (f: Frame) =>
    f.opcode === 0x8
      ? `close ${f.payload.readUInt16BE(0)}`
      : f.opcode === 0x1
        ? `text ${f.payload.toString('utf8')}`
        : `binary ${f.payload.length}`
  return {
    socket,
    closeCode: async (ms) => (await firstOf((f) => f.opcode === 0x8, ms))?.payload.readUInt16BE(0),
    firstFrame: async (ms) => {
      const frame = await firstOf(() => true, ms)
      return frame && described(frame)
    },
  }
}

/**
 * Sends one binary message of `bytes` zero bytes (masked with a zero key, so the payload needs no
 * copy), streamed in 1 MiB writes that wait for the socket to drain; stops early once the socket
 * closed or `stop()` says so. Resolves with the bytes of payload written.
 */
export async function streamMessage(socket: net.Socket, bytes: number, stop: () => boolean): Promise<number> {
  const header = Buffer.alloc(14)
  header[0] = 0x82
  header[1] = 0x80 | 127
  header.writeBigUInt64BE(BigInt(bytes), 2)
  const chunk = Buffer.alloc(1024 * 1024)
  let sent = 0
  const open = () => !socket.destroyed && socket.writable && !stop()
  if (!socket.write(header)) await drained(socket)
  while (sent < bytes && open()) {
    const part = Math.min(chunk.length, bytes - sent)
    sent += part
    if (!socket.write(part === chunk.length ? chunk : chunk.subarray(0, part))) await drained(socket)
  }
  return sent
}

function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (socket.off('drain', done), socket.off('close', done), resolve())
    socket.on('drain', done)
    socket.on('close', done)
  })
}
