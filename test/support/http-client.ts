/**
 * HTTP requests over node:http for the suites that care where a request comes from: `from` binds
 * the client socket to a loopback address of its own (any 127.x.y.z on Linux), so behind a proxy
 * each "client" has a distinct address. Every request is bounded in time.
 */
import http from 'node:http'
import { randomInt } from 'node:crypto'

export interface CallOptions {
  method?: string
  headers?: Record<string, string>
  /** JSON-encoded unless a string. */
  body?: unknown
  /** The client's local address (default: the system's choice, 127.0.0.1). */
  from?: string
  agent?: http.Agent
  timeoutMs?: number
}

export interface CallResult {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

export function call(url: string, opts: CallOptions = {}): Promise<CallResult> {
  const body =
    opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
  const headers: Record<string, string> = { ...opts.headers }
  if (body !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(body))
    headers['content-type'] ??= 'application/json'
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        localAddress: opts.from,
        agent: opts.agent,
        timeout: opts.timeoutMs ?? 10_000,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${opts.timeoutMs ?? 10_000} ms`)))
    req.on('error', reject)
    req.end(body)
  })
}

/** A loopback address no other run uses in the same minute: a fresh client for a rate limit. */
export const randomLoopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
