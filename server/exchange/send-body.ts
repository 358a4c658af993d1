/**
 * Writes a streamed response body to node's response: one chunk read, one chunk written, and the
 * next read only once the connection has taken it (write returned true, or 'drain'), so a body is
 * never read ahead of what the client takes. A write that backs up arms the send timeout
 * (send-timeout.ts). When the client goes away the body is cancelled at once (a file body closes
 * its descriptor); so it is for HEAD, and when the response was already closed.
 *
 * A body may need a resource before its head can honestly be sent (a file body opens its file,
 * server/static/file-body.ts): it carries an `openBody` hook, awaited before the head, so a failure
 * there (EMFILE) can still become an error status instead of a truncated 200.
 */
import type { ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import { watchDrain } from './send-timeout.ts'

const kOpen = Symbol('vela.openBody')

/** A streamed body with a resource to acquire before the response's head is sent. */
export type OpenableBody = ReadableStream<Uint8Array> & { readonly [kOpen]: () => Promise<void> }

/** Marks `body` as needing `open()` (resolving once the body can be read) before the head goes out. */
export function openableBody(body: ReadableStream<Uint8Array>, open: () => Promise<void>): OpenableBody {
  return Object.assign(body, { [kOpen]: open })
}

/** Acquires what `body` needs before its head is sent (nothing for other bodies). */
export function openBody(body: unknown): Promise<void> | undefined {
  return (body as Partial<OpenableBody> | null)?.[kOpen]?.()
}

interface Source {
  next(): Promise<{ done?: boolean; value?: unknown }>
  cancel(): void
}

function sourceOf(body: ReadableStream | Readable): Source {
  if (body instanceof ReadableStream) {
    const reader = body.getReader()
    return { next: () => reader.read(), cancel: () => void reader.cancel().catch(() => {}) }
  }
  const it = body[Symbol.asyncIterator]()
  return { next: () => it.next(), cancel: () => void body.destroy() }
}

/** Cancels a body that will not be read. */
export function discardBody(body: ReadableStream | Readable): void {
  if (body instanceof ReadableStream) {
    if (!body.locked) body.cancel().catch(() => {})
  } else body.destroy()
}

/**
 * Sends `status`, `headers` (flat name/value pairs) and `body`, as described above. Resolves when
 * the response has ended or was abandoned (client gone, send timeout); rejects when the body
 * fails (after the head: the caller destroys the connection) or cannot be opened (before it).
 * `count`, when given, is told the bytes of each chunk written.
 */
export async function sendStreamed(
  res: ServerResponse,
  status: number,
  headers: string[],
  body: ReadableStream | Readable,
  count?: (bytes: number) => void,
): Promise<void> {
  if (res.destroyed) return discardBody(body)
  const opening = openBody(body)
  if (opening) {
    try {
      await opening
    } catch (err) {
      discardBody(body)
      throw err
    }
    if (res.destroyed) return discardBody(body)
  }
  res.writeHead(status, headers)
  if (res.req.method === 'HEAD') {
    discardBody(body)
    res.end()
    return
  }
  const source = sourceOf(body)
  let finished = false
  let wake: ((open: boolean) => void) | undefined
  const onClose = () => {
    if (!finished) source.cancel()
    wake?.(false)
  }
  const onDrain = () => wake?.(true)
  res.on('close', onClose)
  res.on('drain', onDrain)
  try {
    for (;;) {
      const { done, value } = await source.next()
      if (done) break
      if (res.destroyed) return
      const written = res.write(value as Uint8Array)
      count?.(typeof value === 'string' ? Buffer.byteLength(value) : (value as Uint8Array).byteLength)
      if (written) continue
      watchDrain(res.socket)
      if (res.destroyed) return
      const open = await new Promise<boolean>((resolve) => (wake = resolve))
      wake = undefined
      if (!open) return
    }
    finished = true
    if (!res.destroyed) res.end()
  } catch (err) {
    finished = true
    if (res.destroyed) return
    throw err
  } finally {
    res.off('close', onClose)
    res.off('drain', onDrain)
  }
}
