/**
 * Raw HTTP over a socket, for requests that fetch() would refuse to send or would normalise
 * (bad methods, `..` segments, invalid escapes, oversized request lines).
 */
import net from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** Everything the server sent. */
  raw: string
}

export function parseRaw(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n')
  const head = end === -1 ? raw : raw.slice(0, end)
  const [statusLine, ...lines] = head.split('\r\n')
  const headers: Record<string, string> = {}
  for (const l of lines) {
    const i = l.indexOf(':')
    if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim()
  }
  return { status: Number(statusLine?.split(' ')[1] ?? 0), headers, body: end === -1 ? '' : raw.slice(end + 4), raw }
}

/** How long to wait for a response's first byte: a bound for a busy machine, not an expectation. */
const FIRST_BYTE_MS = 30_000

/**
 * Sends `request` as is and resolves with the first response (read until close, or until nothing
 * more arrives for `idleMs` once it has started).
 */
export function rawRequest(port: number, request: string | Buffer, idleMs = 500): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    let timer: NodeJS.Timeout | undefined
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(parseRaw(data))
    }
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(done, data ? idleMs : Math.max(idleMs, FIRST_BYTE_MS))
    }
    socket.on('connect', () => {
      socket.write(request)
      arm()
    })
    socket.on('data', (d) => {
      data += d.toString('latin1')
      const r = parseRaw(data)
      const len = Number(r.headers['content-length'] ?? NaN)
      if (!Number.isNaN(len) && Buffer.byteLength(r.body, 'latin1') >= len) done()
      else arm()
    })
    socket.on('end', done)
    socket.on('error', (err) => (data ? done() : reject(err)))
  })
}

export interface RawConnection {
  /** Writes `request` and resolves with its response (framed by `content-length`; none for HEAD); rejects with what ended the connection first. */
  send(request: string): Promise<RawResponse>
  /** Resolves when the server (or `destroy`) closed the connection. */
  readonly closed: Promise<void>
  destroy(): void
}

/** One keep-alive connection for raw requests in turn (one at a time), as a client reusing its socket sends them. */
export function rawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    let waiting: { head: boolean; resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined
    let ended: Error | undefined
    const closed = new Promise<void>((r) => socket.once('close', () => r()))
    const settle = () => {
      const end = data.indexOf('\r\n\r\n')
      if (!waiting || end === -1) return
      const r = parseRaw(data)
      const len = waiting.head ? 0 : Number(r.headers['content-length'] ?? 0)
      if (Buffer.byteLength(r.body, 'latin1') < len) return
      const body = r.body.slice(0, len)
      data = r.body.slice(len)
      const w = waiting
      waiting = undefined
      w.resolve({ ...r, body, raw: r.raw.slice(0, end + 4 + len) })
    }
    const fail = (err: Error) => {
      ended ??= err
      waiting?.reject(err)
      waiting = undefined
    }
    socket.on('data', (d) => {
      data += d.toString('latin1')
      settle()
    })
    socket.on('end', () => fail(new Error('EOF: the server closed the connection')))
    socket.on('error', (err: NodeJS.ErrnoException) =>
      fail(Object.assign(new Error(err.code ?? err.message), { code: err.code })),
    )
    socket.once('connect', () =>
      resolve({
        send(request) {
          if (ended) return Promise.reject(ended)
          return new Promise((res, rej) => {
            waiting = { head: request.startsWith('HEAD '), resolve: res, reject: rej }
            socket.write(request)
          })
        },
        closed,
        destroy: () => socket.destroy(),
      }),
    )
    socket.once('error', reject)
  })
}
