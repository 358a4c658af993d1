/** A chat client for the tests: a WebSocket whose JSON frames can be awaited one by one. */
export interface Client {
  /** The next frame not yet taken (waits up to 5 s for it). */
  next(): Promise<{ type: string; [key: string]: unknown }>
  send(value: unknown): void
  close(): Promise<void>
}

/** Opens a socket to `url` (`ws://…`) and resolves once it is open. */
export function connect(url: string): Promise<Client> {
  const socket = new WebSocket(url)
  const frames: string[] = []
  const waiting: ((frame: string) => void)[] = []
  socket.addEventListener('message', (e) => {
    const take = waiting.shift()
    if (take) take(String(e.data))
    else frames.push(String(e.data))
  })
  const client: Client = {
    next() {
      const frame = frames.shift()
      if (frame !== undefined) return Promise.resolve(JSON.parse(frame))
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no frame within 5 s on ${url}`)), 5000)
        waiting.push((text) => {
          clearTimeout(timer)
          resolve(JSON.parse(text))
        })
      })
    },
    send: (value) => socket.send(JSON.stringify(value)),
    close() {
      if (socket.readyState === WebSocket.CLOSED) return Promise.resolve()
      const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()))
      socket.close()
      return closed
    },
  }
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(client))
    socket.addEventListener('error', () => reject(new Error(`could not open ${url}`)))
  })
}
