/**
 * A TCP proxy on 127.0.0.1 that stands for a service going away and coming back: in `down` mode
 * it resets every connection it accepts (the client sees ECONNRESET) and counts the attempts; in
 * `up` mode it pipes to the real service. `down()` also resets the connections piped so far.
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
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }, mode: 'up' | 'down' = 'down'): Promise<TcpProxy> {
  let refused = 0
  let onRefused: (() => void) | undefined
  const piped = new Set<net.Socket>()
  const server = net.createServer((client) => {
    if (mode === 'down') {
      refused++
      client.resetAndDestroy()
      onRefused?.()
      return
    }
    const upstream = net.connect(target.port, target.host)
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      piped.add(a)
      a.on('error', () => b.destroy())
      a.on('close', () => {
        piped.delete(a)
        b.destroy()
      })
      a.pipe(b)
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
        const timer = setTimeout(() => reject(new Error(`only ${refused} connections refused within ${timeoutMs} ms, expected ${n}`)), timeoutMs)
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
    async close() {
      for (const socket of piped) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
