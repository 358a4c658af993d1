/**
 * Reads a request body with a size limit. `Content-Length` over the limit is refused before a byte
 * is read; a chunked body is counted as it arrives and reading stops at the limit. On node the
 * IncomingMessage is read directly (the web stream wrapper costs a copy per chunk).
 */
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { httpError } from './errors/http-error.ts'

const empty = new Uint8Array(0)

function tooLarge(limit: number) {
  return httpError(413, `Payload Too Large: the request body exceeds the limit of ${limit} bytes`)
}

/** node's request behind an h3 event, when the event came from node's listener. */
export const nodeRequestOf = (event: H3Event) => (event.runtime?.node as { req?: IncomingMessage } | undefined)?.req

/** Reads node's request body; a declared or counted length over `limit` is a 413. */
export function readNodeBody(node: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = node.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit))
  return readNode(node, limit)
}

export function readRawBody(event: H3Event, limit: number): Promise<Uint8Array> {
  const node = nodeRequestOf(event)
  if (node) return readNodeBody(node, limit)
  const req = event.req
  const declared = req.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit))
  if (!req.body) return Promise.resolve(empty)
  return readWeb(req.body, limit)
}

async function readWeb(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
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
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
}

function readNode(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (req.readableEnded) return Promise.resolve(empty)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
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
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    }
    const onError = (err: Error) => {
      cleanup()
      reject(err)
    }
    const onClose = () => {
      cleanup()
      reject(httpError(400, 'Bad Request: the connection closed before the body was complete'))
    }
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose)
  })
}
