/**
 * One request over a raw TCP socket, byte for byte: `fetch` and `new URL` normalise `..` and
 * backslashes before sending, so traversal spellings can only be tested this way.
 */
import net from 'node:net'

export interface RawResponse {
  status: number
  head: string
  body: Buffer
}

export function rawRequest(port: number, target: string, method = 'GET', headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
    socket.on('connect', () => socket.write(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`, 'latin1'))
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)))
    socket.on('end', () => {
      const all = Buffer.concat(chunks)
      const split = all.indexOf('\r\n\r\n')
      const head = all.subarray(0, split === -1 ? all.length : split).toString('latin1')
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: all.subarray(split + 4) })
    })
  })
}
