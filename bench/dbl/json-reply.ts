/** How both bench database servers answer: JSON with its length, a failure as a 500 naming it. */
import type { ServerResponse } from 'node:http'

export function jsonReplies(res: ServerResponse) {
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  }
  return { reply, fail: (e: unknown) => reply(500, { error: String(e) }) }
}
