/**
 * A WebSocket test client (the `ws` package) that queues what it receives, so a test reads
 * messages in order with a bounded wait: `await client.next()`. Exactly-once checks end with a
 * sentinel: publish a last message every client should get, then `client.until(sentinel)` returns
 * everything before it (a duplicate or a stray message shows up there, with no sleep).
 */
import WebSocket from 'ws'

export interface Received {
  readonly text: string
  readonly binary: boolean
  readonly bytes: Uint8Array
}

export class WsClient {
  readonly #ws: WebSocket
  readonly #queue: Received[] = []
  #waiter: (() => void) | undefined
  closed = false

  private constructor(ws: WebSocket) {
    this.#ws = ws
    ws.on('message', (data, binary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)
      this.#queue.push({ text: bytes.toString('utf8'), binary, bytes: new Uint8Array(bytes) })
      this.#waiter?.()
    })
    ws.on('close', () => {
      this.closed = true
      this.#waiter?.()
    })
  }

  /** Opens `url` and waits for the server's first message (the test apps send `ready` once subscribed). */
  static async open(url: string, first = 'ready', timeoutMs = 15_000): Promise<WsClient> {
    const ws = new WebSocket(url)
    const client = new WsClient(ws)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode} from ${url}`)))
    })
    const hello = await client.next(timeoutMs)
    if (hello.text !== first)
      throw new Error(`expected ${JSON.stringify(first)} first from ${url}, got ${JSON.stringify(hello.text)}`)
    return client
  }

  send(data: unknown): void {
    this.#ws.send(typeof data === 'string' ? data : JSON.stringify(data))
  }

  /** The next message, or a rejection after `timeoutMs` (or once the socket closed with nothing left). */
  async next(timeoutMs = 15_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs
    while (this.#queue.length === 0) {
      if (this.closed) throw new Error('the socket closed before the next message')
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no message within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#waiter = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.#waiter = undefined
    }
    return this.#queue.shift()!
  }

  /** The texts received before `sentinel` (which is consumed). */
  async until(sentinel: string, timeoutMs = 15_000): Promise<string[]> {
    const before: string[] = []
    for (;;) {
      const m = await this.next(timeoutMs)
      if (m.text === sentinel) return before
      before.push(m.binary ? `binary:${[...m.bytes].join(',')}` : m.text)
    }
  }

  /** Closes and waits for the close handshake (bounded). */
  close(timeoutMs = 2000): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#ws.terminate()
        resolve()
      }, timeoutMs)
      this.#ws.once('close', () => {
        clearTimeout(timer)
        resolve()
      })
      this.#ws.close()
    })
  }
}
