/**
 * Reads a request body, as UTF-8 text, with a size limit. `Content-Length` over the limit is
 * refused before a byte is read; a chunked body is counted as it arrives and reading stops at the
 * limit. On node the IncomingMessage is read directly (the web stream wrapper costs a copy per chunk).
 *
 * On node a read that cannot finish rejects with what ended it: `ClientClosedError` when the
 * client closed the connection first; the listener's answer (a 400 for broken chunked framing, a
 * 408 for a body slower than `requestTimeout`) when node's parser gave up on the body
 * (`failBody`, server/listener/client-errors.ts), so the app does not answer a second time.
 */
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import type { BodySink } from './contracts/request.ts'
import { ClientClosedError } from './errors/client-faults.ts'
import { httpError } from './errors/http-error.ts'

const decoder = new TextDecoder()
// Node's Buffer decodes UTF-8 natively; other runtimes' chunks go through TextDecoder.
const toText = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes.toString('utf8') : decoder.decode(bytes))

function tooLarge(limit: number) {
  return httpError(413, `Payload Too Large: the request body exceeds the limit of ${limit} bytes`)
}

/** node's request behind an h3 event, when the event came from node's listener. */
export const nodeRequestOf = (event: H3Event) => (event.runtime?.node as { req?: IncomingMessage } | undefined)?.req

const kFailed = Symbol('vela.bodyFailed')
const kReading = Symbol('vela.bodyReading')

interface BodyState {
  /** Why the body cannot be read, once the listener gave up on it. */
  [kFailed]?: Error
  /** Rejects the read in progress, if any. */
  [kReading]?: (err: Error) => void
}

/**
 * node's parser gave up on the body of `req` and the listener answered with `err`'s status: a
 * read in progress, or a later one, rejects with `err` (the request would never end otherwise).
 */
export function failBody(req: IncomingMessage, err: Error): void {
  const state = req as IncomingMessage & BodyState
  state[kFailed] = err
  state[kReading]?.(err)
}

/** Reads node's request body; a declared or counted length over `limit` is a 413. */
export function readNodeBody(node: IncomingMessage, limit: number, sink: BodySink): Promise<string> {
  const failed = (node as IncomingMessage & BodyState)[kFailed]
  if (failed) return Promise.reject(failed)
  const declared = node.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit))
  return readNode(node, limit, sink)
}

export function readEventBody(event: H3Event, limit: number, sink: BodySink): Promise<string> {
  const node = nodeRequestOf(event)
  if (node) return readNodeBody(node, limit, sink)
  const req = event.req
  const declared = req.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit))
  if (!req.body) return Promise.resolve((sink.body = ''))
  return readWeb(req.body, limit, sink)
}

async function readWeb(body: ReadableStream<Uint8Array>, limit: number, sink: BodySink): Promise<string> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return (sink.body = toText(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
}

function readNode(req: IncomingMessage, limit: number, sink: BodySink): Promise<string> {
  if (req.readableEnded) return Promise.resolve((sink.body = ''))
  // The client left before the read began: 'close' has come and gone.
  if (req.destroyed) return Promise.reject(new ClientClosedError())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const state = req as IncomingMessage & BodyState
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
      state[kReading] = undefined
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        cleanup()
        // Drain the rest without keeping it, so the connection can answer and be reused.
        req.resume()
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve((sink.body = toText(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))))
    }
    const fail = (err: Error) => {
      cleanup()
      reject(err)
    }
    // node reports a connection closed mid-body as an 'error' ("aborted"), then 'close'.
    const onError = () => fail(state[kFailed] ?? new ClientClosedError())
    const onClose = onError
    state[kReading] = fail
    // `on`, not `once`: cleanup removes all four, and `once` wraps each listener in another closure.
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
  })
}
