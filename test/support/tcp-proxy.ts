/**
 * A TCP proxy on 127.0.0.1 that stands for a service going away and coming back: in `down` mode
 * it resets every connection it accepts (the client sees ECONNRESET) and counts the attempts; in
 * `up` mode it forwards to the real service. `down()` also resets the connections forwarded so far.
 *
 * It also stands for a frozen network: `freeze()` holds whatever either side sends (connections
 * stay open, nothing arrives) until `thaw()` delivers it in order; `freezeAfter(text)` forwards
 * the next client chunk containing `text` (a statement reaches the server) and then freezes, so
 * the server's answer is held. A side that closes while frozen closes the other at once, its
 * held bytes dropped.
 */
import net from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** Connections refused (reset) while down. */
  readonly refused: number
  /** Resolves once `n` connections have been refused in total, or rejects after `timeoutMs`. */
  refusedAtLeast(n: number, timeoutMs?: number): Promise<void>
  up(): void
  down(): void
  /** Holds traffic both ways until `thaw()`. */
  freeze(): void
  /** Forwards the next client-to-service chunk containing `text`, then freezes. */
  freezeAfter(text: string): void
  /** Delivers what was held, in order, and forwards again. */
  thaw(): void
  readonly frozen: boolean
  close(): Promise<void>
}

export async function startTcpProxy(
  target: { host: string; port: number },
  mode: 'up' | 'down' = 'down',
): Promise<TcpProxy> {
  let refused = 0
  let onRefused: (() => void) | undefined
  const piped = new Set<net.Socket>()
  let frozen = false
  let trigger: Buffer | undefined
  let held: (() => void)[] = []
  const server = net.createServer((client) => {
    if (mode === 'down') {
      refused++
      client.resetAndDestroy()
      onRefused?.()
      return
    }
    const upstream = net.connect(target.port, target.host)
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      piped.add(a)
      a.on('error', () => b.destroy())
      a.on('close', () => {
        piped.delete(a)
        b.destroy()
      })
      a.on('data', (chunk: Buffer) => {
        if (frozen) return void held.push(() => b.write(chunk))
        b.write(chunk)
        if (a === client && trigger && chunk.includes(trigger)) {
          trigger = undefined
          frozen = true
        }
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    get refused() {
      return refused
    },
    refusedAtLeast(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${refused} connections refused within ${timeoutMs} ms, expected ${n}`)),
          timeoutMs,
        )
        const check = () => {
          if (refused < n) return
          clearTimeout(timer)
          onRefused = undefined
          resolve()
        }
        onRefused = check
        check()
      })
    },
    up() {
      mode = 'up'
    },
    down() {
      mode = 'down'
      for (const socket of piped) socket.resetAndDestroy()
    },
    freeze() {
      frozen = true
    },
    freezeAfter(text) {
      trigger = Buffer.from(text)
    },
    thaw() {
      frozen = false
      trigger = undefined
      const release = held
      held = []
      for (const deliver of release) deliver()
    },
    get frozen() {
      return frozen
    },
    async close() {
      for (const socket of piped) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
