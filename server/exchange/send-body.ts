/**
 * Writes a streamed response body to node's response: one chunk read, one chunk written, and the
 * next read only once the connection has taken it (write returned true, or 'drain'), so a body is
 * never read ahead of what the client takes. A write that backs up arms the send timeout
 * (send-timeout.ts). A body not read to its end is cancelled (a file body closes its descriptor),
 * whatever ended the sending: the client gone, the send timeout, a failure, HEAD, a response
 * already closed. A response queued behind another on its connection (pipelining) opens and
 * reads nothing until its turn, and is closed with its connection (queued-response.ts).
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
  // Queued behind another response on its connection (pipelining): nothing to open or read until
  // its turn, so a client stalling the one ahead holds no descriptor or buffer for the rest.
  if (!res.socket && !res.destroyed) await turnOf(res)
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
  // The body was read to its end: nothing left to cancel.
  let finished = false
  let wake: ((open: boolean) => void) | undefined
  const onClose = () => {
    // At once, not when the loop next looks: a read may be pending on a slow body.
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
    if (res.destroyed) return
    throw err
  } finally {
    res.off('close', onClose)
    res.off('drain', onDrain)
    // Every other way out (a failure, the response destroyed before its 'close', abandoned…)
    // cancels the body, which closes a file's descriptor; cancelling twice, or a failed body, is harmless.
    if (!finished) source.cancel()
  }
}

/** Resolves once node gives `res` its connection, or closes it first (queued-response.ts). */
function turnOf(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('socket', done)
      res.off('close', done)
      resolve()
    }
    res.on('socket', done)
    res.on('close', done)
  })
}
